import CSandbox
import FileIO
import Glibc

/// One end of the socket between mediatool and one of its workers: whole messages (SOCK_SEQPACKET),
/// each with up to four descriptors passed along (SCM_RIGHTS).
final class WorkerChannel: @unchecked Sendable {
    let descriptor: Int32
    /// The largest message either side sends: a job's names and its report.
    static let capacity = 1 << 20

    /// Where messages are received: one buffer for the channel's life, not a megabyte a message.
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: WorkerChannel.capacity, alignment: 16)

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
        buffer.deallocate()
    }

    /// A connected pair: one end for each side, both close-on-exec.
    static func pair() throws(SystemError) -> (WorkerChannel, WorkerChannel) {
        var ends: [Int32] = [-1, -1]
        _ = try FileSystem.valueOrErrno("cannot make a socket for a worker") {
            socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends)
        }
        return (WorkerChannel(descriptor: ends[0]), WorkerChannel(descriptor: ends[1]))
    }

    func send(_ bytes: [UInt8], descriptors: [Int32] = []) throws(SystemError) {
        let result = bytes.withUnsafeBytes { buffer in
            descriptors.withUnsafeBufferPointer { fds in
                mt_send_message(descriptor, buffer.baseAddress, buffer.count, fds.baseAddress, Int32(fds.count))
            }
        }
        if result != 0 { throw SystemError("cannot send to a worker") }
    }

    /// One message, or nil when the other end closed. The descriptors are the caller's to close.
    func receive() throws(SystemError) -> (bytes: [UInt8], descriptors: [Int32])? {
        var fds: [Int32] = [-1, -1, -1, -1]
        var count: Int32 = 0
        let length = fds.withUnsafeMutableBufferPointer {
            mt_receive_message(descriptor, buffer.baseAddress, Self.capacity, $0.baseAddress, 4, &count)
        }
        if length < 0 { throw SystemError("cannot receive from a worker") }
        if length == 0 && count == 0 { return nil }
        return (Array(UnsafeRawBufferPointer(start: buffer.baseAddress, count: length)), Array(fds.prefix(Int(count))))
    }

    /// Waits until a message (or the end) can be read, at most `seconds`; false when the time ran out.
    func waitReadable(seconds: Double) -> Bool {
        Readiness.wait(for: [descriptor], seconds: seconds) != nil
    }
}

/// Waiting for descriptors to become readable, the one poll loop of the sandbox.
enum Readiness {
    /// Which of `descriptors` can be read (or have ended), waiting at most `seconds`; nil when the
    /// time ran out. An interrupted wait goes on; a failed one says every descriptor is ready, so
    /// that the reads that follow report the error.
    static func wait(for descriptors: [Int32], seconds: Double) -> [Bool]? {
        var entries = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let deadline = Clock.seconds() + seconds
        while true {
            let left = deadline - Clock.seconds()
            if left <= 0 { return nil }
            let ready = poll(&entries, nfds_t(entries.count), Int32(min(left * 1000, 3_600_000).rounded(.up)))
            if ready > 0 { return entries.map { $0.revents != 0 } }
            if ready < 0 && errno != EINTR { return entries.map { _ in true } }
        }
    }
}
