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
            var fields: [(String, JSONValue)] = [
                ("kind", .string(report.seconds == nil ? "picture" : "video")),
                ("seconds", report.seconds.map(JSONValue.double) ?? .null),
                ("width", .int(report.width)), ("height", .int(report.height)),
                ("orientation", .int(report.orientation.rawValue)),
            ]
            fields.append(("outputs", .array(report.outputs.map { output in
                .object([JSONMember("path", .string(output.path)), JSONMember("size", .string(output.size)),
                         JSONMember("width", .int(output.width)), JSONMember("height", .int(output.height))])
            })))
            return JobReport(fields: fields, warnings: report.warnings)
        }
        job.decoders = JobDecoders.forStart
        return job
    }
}
