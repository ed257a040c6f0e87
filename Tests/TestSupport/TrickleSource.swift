import FileIO

/// A source that hands out at most a few bytes a read, as a slow pipe does, and hides its length.
public struct TrickleSource: ByteSource {
    private var inner: MemoryByteSource
    private let stepLimit: Int
    private var step = 0

    public init(_ bytes: [UInt8], stepLimit: Int = 5) {
        inner = MemoryByteSource(bytes)
        self.stepLimit = stepLimit
    }

    public var remainingLength: Int? { nil }

    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        step = step % stepLimit + 1
        return try inner.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<min(buffer.count, step)]))
    }

    public mutating func skip(_ count: Int) throws -> Int { try inner.skip(count) }
}
