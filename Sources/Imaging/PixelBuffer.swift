/// Pixels in memory: rows top to bottom, no padding, samples interleaved (gray, gray+alpha, RGB or
/// RGBA), 8 bits or 16 bits a sample (16-bit samples big-endian, as PNG stores them).
public struct PixelBuffer: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public let channels: Int
    public let bytesPerSample: Int
    public var bytes: [UInt8]

    public var bytesPerPixel: Int { channels * bytesPerSample }
    public var rowBytes: Int { width * bytesPerPixel }

    public init(width: Int, height: Int, channels: Int, bytesPerSample: Int = 1, bytes: [UInt8]) {
        precondition(width >= 0 && height >= 0 && (1...4).contains(channels) && (bytesPerSample == 1 || bytesPerSample == 2))
        precondition(bytes.count == width * height * channels * bytesPerSample)
        self.width = width
        self.height = height
        self.channels = channels
        self.bytesPerSample = bytesPerSample
        self.bytes = bytes
    }

    /// A buffer filled by `body`, which gets the uninitialised bytes.
    public init(width: Int, height: Int, channels: Int, bytesPerSample: Int = 1,
                filling body: (UnsafeMutableRawBufferPointer) throws -> Void) rethrows {
        let count = width * height * channels * bytesPerSample
        let bytes = try [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            try body(UnsafeMutableRawBufferPointer(buffer))
            initialized = count
        }
        self.init(width: width, height: height, channels: channels, bytesPerSample: bytesPerSample, bytes: bytes)
    }

    /// The samples of the pixel at (x, y), for tests and diagnostics.
    public func pixel(x: Int, y: Int) -> [UInt8] {
        let start = y * rowBytes + x * bytesPerPixel
        return Array(bytes[start..<(start + bytesPerPixel)])
    }
}

extension PixelBuffer {
    /// The sample at `offset` of samples `bytesPerSample` wide, as 8 bits: itself, or a 16-bit
    /// (big-endian) sample rounded, (v + 128) / 257, which maps 0...65535 onto 0...255 evenly. The
    /// one 16-to-8-bit rounding of every 8-bit encoder.
    @inline(__always)
    public static func eightBitSample(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, bytesPerSample: Int) -> UInt8 {
        bytesPerSample == 1 ? bytes[offset] : UInt8((Int(bytes[offset]) << 8 | Int(bytes[offset + 1]) + 128) / 257)
    }
}

extension PixelBuffer {
    /// The picture with samples of `bytes` bytes: 16-bit samples rounded to 8 as every 8-bit
    /// encoder rounds them, 8-bit ones widened exactly (v * 257); itself when they already are.
    public func withBytesPerSample(_ bytes: Int) -> PixelBuffer {
        precondition(bytes == 1 || bytes == 2)
        if bytes == bytesPerSample { return self }
        let samples = width * height * channels
        return PixelBuffer(width: width, height: height, channels: channels, bytesPerSample: bytes) { destination in
            self.bytes.withUnsafeBufferPointer { source in
                if bytes == 1 {
                    for index in 0..<samples { destination[index] = Self.eightBitSample(source, at: 2 * index, bytesPerSample: 2) }
                } else {
                    for index in 0..<samples {
                        destination[2 * index] = source[index]
                        destination[2 * index + 1] = source[index]
                    }
                }
            }
        }
    }
}
