/// Bytes read front to back: a file, a pipe, standard input or memory.
public protocol ByteSource {
    /// The number of bytes from the current position to the end, when it can be known up front.
    var remainingLength: Int? { get }

    /// Reads up to `buffer.count` bytes; 0 means the end.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int

    /// Moves past up to `count` bytes; returns how many there were.
    mutating func skip(_ count: Int) throws -> Int
}

/// Bytes already in memory, for tests and small inputs.
public struct MemoryByteSource: ByteSource {
    private let bytes: [UInt8]
    private var position = 0

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    public var remainingLength: Int? { bytes.count - position }

    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = min(buffer.count, bytes.count - position)
        bytes.withUnsafeBytes { source in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[position..<(position + count)]))
        }
        position += count
        return count
    }

    public mutating func skip(_ count: Int) throws -> Int {
        let skipped = min(count, bytes.count - position)
        position += skipped
        return skipped
    }
}
