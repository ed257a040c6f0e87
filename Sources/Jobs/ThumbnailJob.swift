import Batch
import FileIO
import ImageCodecs
import Imaging
import JSON
import VideoThumbnails

extension Thumbnailer {
    /// One input to one output (the first size), in this process.
    public func makeThumbnail(of input: String, to output: String) throws -> ThumbnailReport {
        let (file, outputs) = try job.open(input: input, outputs: [PlannedOutput(variant: sizes[0].description, path: output)])
        let report = try makeThumbnails(from: file, into: outputs)
        try outputs.commit()
        return report
    }

    /// The thumbnail as a job: one output per size, planned by the run (`OutputPlan.variants`).
    public var job: FileJob {
        var job = FileJob(recognise: Self.recognise, policy: options.output) { file, outputs, _ in
            let report = try makeThumbnails(from: file, into: outputs)
            let result = ThumbnailResult(kind: report.seconds == nil ? "picture" : "video", seconds: report.seconds,
                                         width: report.width, height: report.height, orientation: report.orientation.rawValue,
                                         outputs: report.outputs.map { .init(path: JSONPath($0.path), size: $0.size, width: $0.width, height: $0.height) })
            return try JobReport(result, warnings: report.warnings)
        }
        if options.hdr == .keep && options.format.keepsHDRThroughFFmpeg {
            job.decoders = { _ in JobDecoders.media }
        } else {
            job.decoders = JobDecoders.forInput
        }
        return job
    }
}
