import Batch
import FFmpeg
import Previews
import FileIO
import JSON

extension Previewer {
    /// The preview as a job of the batch: one file per video, written whole to its planned output.
    public var job: FileJob {
        // The batch's line names the input and the output already.
        FileJob(recognise: VideoSource.recognise, policy: options.output) { file, outputs, path in
            let preview = try makePreview(from: file)
            try FileSystem.writeAll(preview.bytes, to: outputs.primary, target: path)
            let result = PreviewResult(format: options.format.rawValue, width: preview.width, height: preview.height,
                                       frames: preview.frameCount, milliseconds: preview.milliseconds,
                                       segments: preview.segments.map { .init(start: $0.start, seconds: $0.length) },
                                       quality: preview.quality, bytes: preview.bytes.count)
            return try JobReport(result, warnings: preview.warnings)
        }
    }
}
