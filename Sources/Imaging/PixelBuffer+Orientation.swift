extension PixelBuffer {
    /// The pixels as they are seen: stored pixels turned by `orientation`.
    public func oriented(_ orientation: Orientation) -> PixelBuffer {
        if orientation == .identity { return self }
        let size = orientation.displaySize(storedWidth: width, storedHeight: height)
        let mapping = orientation.storedPixelMapping(storedWidth: width, storedHeight: height)
        let pixelBytes = bytesPerPixel
        // Byte steps through the stored picture for one displayed step right and one down.
        let stepRight = (mapping.y.perX * width + mapping.x.perX) * pixelBytes
        let stepDown = (mapping.y.perY * width + mapping.x.perY) * pixelBytes
        let start = (mapping.y.origin * width + mapping.x.origin) * pixelBytes
        return PixelBuffer(width: size.width, height: size.height, channels: channels,
                           bytesPerSample: bytesPerSample) { destination in
            bytes.withUnsafeBytes { source in
                guard let from = source.baseAddress, let to = destination.baseAddress else { return }
                switch pixelBytes {
                case 3: Self.copy(UInt8.self, count: 3, from, to, size, start, stepRight, stepDown)
                case 4: Self.copy(UInt32.self, count: 1, from, to, size, start, stepRight, stepDown)
                case 1: Self.copy(UInt8.self, count: 1, from, to, size, start, stepRight, stepDown)
                case 2: Self.copy(UInt16.self, count: 1, from, to, size, start, stepRight, stepDown)
                case 8: Self.copy(UInt64.self, count: 1, from, to, size, start, stepRight, stepDown)
                default: Self.copy(UInt16.self, count: pixelBytes / 2, from, to, size, start, stepRight, stepDown)
                }
            }
        }
    }

    /// Copies pixels of `count` units of `Unit` each, walking the source by the given byte steps.
    @inline(__always)
    private static func copy<Unit>(
        _: Unit.Type, count: Int, _ source: UnsafeRawPointer, _ destination: UnsafeMutableRawPointer,
        _ size: (width: Int, height: Int), _ start: Int, _ stepRight: Int, _ stepDown: Int
    ) {
        let unitSize = MemoryLayout<Unit>.size
        var written = 0
        var rowStart = start
        for _ in 0..<size.height {
            var offset = rowStart
            for _ in 0..<size.width {
                for unit in 0..<count {
                    let value = source.loadUnaligned(fromByteOffset: offset + unit * unitSize, as: Unit.self)
                    destination.storeBytes(of: value, toByteOffset: written, as: Unit.self)
                    written += unitSize
                }
                offset += stepRight
            }
            rowStart += stepDown
        }
    }
}
