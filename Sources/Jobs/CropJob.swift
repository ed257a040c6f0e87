import Batch
import FileIO
import ImageCodecs
import ImageCropping
import JSON

extension Cropper {
    /// The crop as a job: its planned output the only one it writes.
    public var job: FileJob {
        var job = FileJob(recognise: PictureFormat.recognise, policy: options.output) { file, outputs, name in
            let report = try crop(from: file, into: outputs.primary, output: name)
            let rect = report.storedRect
            return try JobReport(CropResult(orientation: report.orientation.rawValue, storedRect: [rect.x, rect.y, rect.width, rect.height]),
                                 warnings: report.warnings)
        }
        // Crops are of pictures only: a worker without FFmpeg's libraries does them.
        job.decoders = { _ in .pictures }
        return job
    }
}
