import CMediaToolSystem
import FileIO
import Glibc
import Synchronization
import WorkerPool
import Failures

/// How many bytes an encoder wrote to an output, for the manifest. A file says so itself; a pipe
/// (a sandboxed worker's outputs are pipes to mediatool) does not, so the encoder is given a pipe
/// of this process's, whose bytes a thread passes on to the output and counts.
enum CountedOutput {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// nil when no thread could be had to count them.
    static func write(to descriptor: Int32, _ body: (Int32) throws -> Void) throws -> Int? {
        if let status = FileSystem.status(ofDescriptor: descriptor), status.st_mode & S_IFMT == S_IFREG {
            try body(descriptor)
            return FileSystem.status(ofDescriptor: descriptor).map { Int($0.st_size) }
        }
        var ends: [Int32] = [-1, -1]
        guard mt_pipe_cloexec(&ends) == 0 else { throw Failure(description: "cannot make a pipe to count an output's bytes") }
        let (readEnd, writeEnd) = (ends[0], ends[1])
        let counted = Atomic<Int>(0), failed = Atomic<Bool>(false)
        let forwarding = WorkerThreads.start(count: 1) { _ in
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                do {
                    try buffer.withUnsafeBytes { try FileSystem.writeAll(UnsafeRawBufferPointer(rebasing: $0[..<count]), to: descriptor, target: "") }
                    counted.add(count, ordering: .relaxed)
                } catch {
                    failed.store(true, ordering: .relaxed)
                    break
                }
            }
            close(readEnd)
        }
        guard forwarding.count == 1 else {
            close(readEnd)
            close(writeEnd)
            try body(descriptor)
            return nil
        }
        var failure: (any Error)?
        do { try body(writeEnd) } catch { failure = error }
        close(writeEnd)
        forwarding.join()
        if let failure { throw failure }
        if failed.load(ordering: .relaxed) { throw Failure(description: "an output could not be written whole") }
        return counted.load(ordering: .relaxed)
    }
}

extension CountedOutput.Failure: ClassifiedError {
    var failureKind: FailureKind { .writeFailed }
}
