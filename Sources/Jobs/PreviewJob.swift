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
            let fields: [(String, JSONValue)] = [
                ("format", .string(options.format.rawValue)),
                ("width", .int(preview.width)), ("height", .int(preview.height)),
                ("frames", .int(preview.frameCount)),
                ("milliseconds", .int(preview.milliseconds)),
                ("segments", .array(preview.segments.map { segment in
                    .object([JSONMember("start", .double(segment.start)), JSONMember("seconds", .double(segment.length))])
                })),
                ("quality", .int(preview.quality)),
                ("bytes", .int(preview.bytes.count)),
            ]
            return JobReport(fields: fields, warnings: preview.warnings)
        }
    }
}
