import Batch
import FileIO
import JSON
import MetadataStripping

extension MetadataStripper {
    /// Strip as a job: its one planned output, the input with the edits applied.
    public static func job(options: StripOptions) -> FileJob {
        let stripper = MetadataStripper(removing: options.groups)
        var job = FileJob(recognise: recognise, policy: options.output) { file, outputs, name in
            let edits = try stripper.edits(for: file)
            guard let size = file.size else { throw StripError.notAFile }
            try edits.write(file, size: size, to: outputs.primary, target: name)
            // Each name once, in the order found (a MOV's ©xyz in user data and in an item list is one position).
            var seen: Set<String> = []
            let removed = edits.removed.filter { seen.insert($0).inserted }
            return try JobReport(StripResult(removed: removed, changed: !edits.isEmpty), warnings: [])
        }
        // Strip decodes nothing: a worker without FFmpeg's libraries does it.
        job.decoders = { _ in .pictures }
        return job
    }

    /// Refuses a stream whose first bytes are nothing strip reads.
    @Sendable static func recognise(_ start: UnsafeRawBufferPointer) throws {
        guard recognises(Array(start.prefix(64))) else { throw StripError.unsupported(found: "") }
    }
}

/// A strip's line: what it removed, each `group:name` as exiftool groups it, and whether the
/// output differs from the input at all.
struct StripResult: Encodable {
    let removed: [String]
    let changed: Bool
}
