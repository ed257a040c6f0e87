import CMediaToolSystem
import CSandbox
import FileIO
import Glibc

/// One output's bytes on their way from a worker to its temporary file: the worker gets the write
/// end of a pipe, never the file, so that nothing it keeps can touch an output once it is in place.
final class OutputPipe {
    /// Where the bytes go: the output's temporary (or standard output), written by mediatool; -1
    /// when they go to `sink` (a library's call, which takes them in memory).
    let target: Int32
    private let sink: ((UnsafeRawBufferPointer) throws -> Void)?
    let name: String
    private(set) var readEnd: Int32
    /// The end the worker is sent; closed here once sent.
    private(set) var writeEnd: Int32
    /// The most an output may take: past it the worker is wrong, and the disk is not filled.
    private let limit: Int
    private(set) var written = 0

    init(target: Int32, name: String, limit: Int, sink: ((UnsafeRawBufferPointer) throws -> Void)? = nil) throws(SystemError) {
        var ends: [Int32] = [-1, -1]
        _ = try FileSystem.valueOrErrno("cannot make a pipe for an output") { mt_pipe_cloexec(&ends) }
        (readEnd, writeEnd) = (ends[0], ends[1])
        // A pipe of 1 MiB (the most one may have unprivileged) lets the encoder write on while
        // mediatool copies, and reads here take what came in one go.
        _ = fcntl(writeEnd, Self.setPipeSize, Int32(1 << 20))
        _ = fcntl(readEnd, F_SETFL, fcntl(readEnd, F_GETFL) | O_NONBLOCK)
        self.target = target
        self.name = name
        self.limit = limit
        self.sink = sink
    }

    deinit {
        closeWriteEnd()
        if readEnd >= 0 { close(readEnd) }
    }

    var isOpen: Bool { readEnd >= 0 }

    func closeWriteEnd() {
        if writeEnd >= 0 { close(writeEnd) }
        writeEnd = -1
    }

    /// F_SETPIPE_SZ, which Glibc's module leaves out.
    private static let setPipeSize: Int32 = 1031

    /// The most outputs besides the planned one a worker may hold open at once.
    static let mostOpen = 8

    /// What one read takes: one buffer for all of a job's pipes, not one a pipe.
    static let bufferSize = 1 << 20

    /// Moves what the pipe holds now to the output through `buffer`; at its end (or with `draining`,
    /// when it holds no more) the pipe is closed. Throws when the output cannot be written (a full disk).
    func pump(through buffer: UnsafeMutableRawBufferPointer, draining: Bool = false) throws {
        guard readEnd >= 0 else { return }
        while true {
            let count = FileSystem.retryingInterrupted { read(readEnd, buffer.baseAddress, buffer.count) }
            if count > 0 {
                written += count
                if written > limit { throw WorkerFailure.outputTooLarge(limit: limit) }
                let bytes = UnsafeRawBufferPointer(rebasing: buffer[..<count])
                if let sink { try sink(bytes) } else { try FileSystem.writeAll(bytes, to: target, target: name) }
                continue
            }
            // Nothing more for now: the worker writes on, unless it has answered (a worker that kept
            // the write end gets no say after its answer).
            if count < 0 && errno == EAGAIN && !draining { return }
            // The end (0), or drained.
            close(readEnd)
            readEnd = -1
            return
        }
    }
}
