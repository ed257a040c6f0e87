import FileIO

/// An ingest's outputs as the storyboard writes them: its WebVTT file, one of the ingest's outputs,
/// as the primary; its pictures opened and finished among the ingest's.
final class StoryboardOutputs: JobOutputs {
    private let outputs: any JobOutputs
    let primary: Int32

    init(vtt: String, of outputs: any JobOutputs) throws {
        self.outputs = outputs
        primary = try outputs.open(vtt, namedByUser: false)
    }

    var planned: [PlannedOutput] { outputs.planned }

    func open(_ path: String, namedByUser: Bool) throws -> Int32 {
        try outputs.open(path, namedByUser: namedByUser)
    }

    func finish(_ descriptor: Int32) throws {
        try outputs.finish(descriptor)
    }
}
