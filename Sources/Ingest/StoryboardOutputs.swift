import FileIO

/// An ingest's outputs as the storyboard writes them: its WebVTT file, one of the ingest's outputs,
/// as the primary; its pictures opened and finished among the ingest's. The WebVTT file is opened
/// when it is written, after its pictures, so that it is moved into place after them too: a WebVTT
/// file found names pictures that are there.
final class StoryboardOutputs: JobOutputs {
    private let outputs: any JobOutputs
    private let vtt: String
    private var opened: Int32?
    /// Why the WebVTT file could not be opened: the storyboard's error, whatever writing to no file said.
    private(set) var openFailure: (any Error)?

    init(vtt: String, of outputs: any JobOutputs) {
        self.outputs = outputs
        self.vtt = vtt
    }

    var primary: Int32 {
        if let opened { return opened }
        do {
            let descriptor = try outputs.open(vtt, namedByUser: false)
            opened = descriptor
            return descriptor
        } catch {
            openFailure = error
            return -1
        }
    }

    var planned: [PlannedOutput] { outputs.planned }

    func open(_ path: String, namedByUser: Bool) throws -> Int32 {
        try outputs.open(path, namedByUser: namedByUser)
    }

    func finish(_ descriptor: Int32) throws {
        try outputs.finish(descriptor)
    }

    /// The WebVTT file is written whole: closed, to be moved into place with the others.
    func finishPrimary() throws {
        if let openFailure { throw openFailure }
        if let opened { try outputs.finish(opened) }
    }
}
