import Glibc

/// Bytes on their way to a file descriptor, gathered so that a write(2) moves tens of kilobytes.
/// Formatters write straight into the buffer: `reserve` hands out space, `commit` takes it back filled.
public final class BufferedOutput {
    @usableFromInline let storage: UnsafeMutablePointer<UInt8>
    @usableFromInline let capacity: Int
    @usableFromInline var count = 0
    private let descriptor: Int32
    /// Named in errors: `<stdout>`, or the output's path.
    public let displayName: String

    public init(descriptor: Int32, displayName: String, capacity: Int = 1 << 16) {
        self.descriptor = descriptor
        self.displayName = displayName
        self.capacity = capacity
        storage = .allocate(capacity: capacity)
    }

    /// Standard output, gathered.
    public static func standardOutput() -> BufferedOutput {
        BufferedOutput(descriptor: STDOUT_FILENO, displayName: "<stdout>")
    }

    deinit {
        storage.deallocate()
    }

    /// A position with room for at least `minimum` bytes (at most the capacity), and the end of the room.
    @inlinable
    public func reserve(_ minimum: Int) throws -> (start: UnsafeMutablePointer<UInt8>, end: UnsafeMutablePointer<UInt8>) {
        if capacity - count < minimum { try flush() }
        return (storage + count, storage + capacity)
    }

    /// Takes the bytes written from the last `reserve`'s start up to `position`.
    @inlinable
    public func commit(upTo position: UnsafeMutablePointer<UInt8>) {
        count = position - storage
    }

    public func write(_ text: String) throws {
        try write(Array(text.utf8))
    }

    public func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { (raw) in try write(raw) }
    }

    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        if capacity - count < bytes.count { try flush() }
        if bytes.count > capacity {
            try writeAll(bytes)
            return
        }
        UnsafeMutableRawPointer(storage + count).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
        count += bytes.count
    }

    public func flush() throws {
        let pending = count
        count = 0
        try writeAll(UnsafeRawBufferPointer(start: storage, count: pending))
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) throws {
        try FileSystem.writeAll(bytes, to: descriptor, target: displayName)
    }
}
