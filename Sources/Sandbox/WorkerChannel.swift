import CSandbox
import FileIO
import Glibc
import Synchronization

/// One end of the socket between mediatool and one of its workers: whole messages, each with up to
/// four descriptors passed along (SCM_RIGHTS). A message goes in packets (SOCK_SEQPACKET) of at most
/// `packetSize`, each led by a byte that says whether more follow: one packet may not exceed the
/// socket's buffer (about 200 KiB by default), and a storyboard of a thousand frames reports more.
/// (Unchecked Sendable: its one buffer is used by `receive` alone, and one thread of each side
/// receives at a time: the parent's thread that waits on the worker, the worker's that asks.)
final class WorkerChannel: @unchecked Sendable {
    let descriptor: Int32
    /// The largest message either side sends: a job's names and its report.
    static let capacity = 64 << 20
    /// The most one packet carries, its leading byte included.
    static let packetSize = 64 << 10

    /// Where packets are received: one buffer for the channel's life, not one a message.
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: WorkerChannel.packetSize, alignment: 16)
    /// Held while a question is asked and answered: a worker's threads (its job asking for an
    /// output, its decoders for memory) take turns, so that no answer goes to the wrong question.
    private let asking = Mutex<Int>(0)
    /// Held while one message's packets are sent, so that no two mix. Not held while an answer is
    /// awaited: memory given back by one thread may be what another's question waits for.
    private let sending = Mutex<Int>(0)

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

    /// Sends `bytes` (at most `capacity`), the descriptors with its first packet.
    func send(_ bytes: [UInt8], descriptors: [Int32] = []) throws(SystemError) {
        try sending.withLock { (_) throws(SystemError) in try sendPackets(bytes, descriptors: descriptors) }
    }

    /// Sends `bytes` and waits for the answer, no other thread's message between them.
    func ask(_ bytes: [UInt8]) throws(SystemError) -> (bytes: [UInt8], descriptors: [Int32])? {
        try asking.withLock { (_) throws(SystemError) in
            try send(bytes)
            return try receive()
        }
    }

    /// A message's first packet marked as one of several, and nothing more: what a worker gone
    /// wrong may send (`TestTrigger.cutsItsHelloShort`).
    func sendFirstPacket(_ bytes: [UInt8]) {
        let packet = [UInt8(1)] + bytes.prefix(1)
        _ = packet.withUnsafeBytes { mt_send_message(descriptor, $0.baseAddress, $0.count, nil, 0) }
    }

    private func sendPackets(_ bytes: [UInt8], descriptors: [Int32]) throws(SystemError) {
        guard bytes.count <= Self.capacity else { throw SystemError("cannot send to a worker", code: EMSGSIZE) }
        let step = Self.packetSize - 1
        var offset = 0
        repeat {
            let end = min(bytes.count, offset + step)
            let packet = [end < bytes.count ? 1 : 0] + bytes[offset..<end]
            let attached = offset == 0 ? descriptors : []
            let result = packet.withUnsafeBytes { buffer in
                attached.withUnsafeBufferPointer { fds in
                    mt_send_message(descriptor, buffer.baseAddress, buffer.count, fds.baseAddress, Int32(fds.count))
                }
            }
            if result != 0 { throw SystemError("cannot send to a worker") }
            offset = end
        } while offset < bytes.count
    }

    /// One message, or nil when the other end closed. The descriptors are the caller's to close.
    /// `seconds`: the longest the rest of a message may take once its first packet came (a worker
    /// that sends half a message and stops holds no one past its time); nil: no limit.
    func receive(seconds: Double? = nil) throws(SystemError) -> (bytes: [UInt8], descriptors: [Int32])? {
        let deadline = seconds.map { Clock.seconds() + $0 }
        var bytes: [UInt8] = []
        var descriptors: [Int32] = []
        var fds: [Int32] = [-1, -1, -1, -1]
        do throws(SystemError) {
            while true {
                var count: Int32 = 0
                let length = fds.withUnsafeMutableBufferPointer {
                    mt_receive_message(descriptor, buffer.baseAddress, Self.packetSize, $0.baseAddress, 4, &count)
                }
                if length < 0 { throw SystemError("cannot receive from a worker") }
                descriptors += fds.prefix(Int(count))
                if length == 0 && count == 0 {
                    if bytes.isEmpty && descriptors.isEmpty { return nil }
                    throw SystemError("cannot receive from a worker: the message was cut short", code: EPROTO)
                }
                guard length >= 1, descriptors.count <= 4, bytes.count + length - 1 <= Self.capacity else {
                    throw SystemError("cannot receive from a worker", code: EMSGSIZE)
                }
                bytes += UnsafeRawBufferPointer(start: buffer.baseAddress! + 1, count: length - 1)
                if buffer[0] == 0 { return (bytes, descriptors) }
                if let deadline, Readiness.wait(for: [descriptor], seconds: deadline - Clock.seconds()) == nil {
                    throw SystemError("cannot receive from a worker", code: ETIMEDOUT)
                }
            }
        } catch {
            descriptors.forEach { close($0) }
            throw error
        }
    }
}

/// Waiting for descriptors to become readable, the one poll loop of the sandbox.
enum Readiness {
    /// Which of `descriptors` can be read (or have ended), waiting at most `seconds` (0: a look
    /// without waiting); nil when the time ran out. An interrupted wait goes on; a failed one says
    /// every descriptor is ready, so that the reads that follow report the error.
    static func wait(for descriptors: [Int32], seconds: Double) -> [Bool]? {
        var entries = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let deadline = Clock.seconds() + seconds
        while true {
            let left = deadline - Clock.seconds()
            let ready = poll(&entries, nfds_t(entries.count), left <= 0 ? 0 : Int32(min(left * 1000, 3_600_000).rounded(.up)))
            if ready > 0 { return entries.map { $0.revents != 0 } }
            if ready < 0 && errno != EINTR { return entries.map { _ in true } }
            if ready == 0 && left <= 0 { return nil }
        }
    }
}
