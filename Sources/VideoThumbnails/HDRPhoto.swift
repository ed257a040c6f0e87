import Imaging

/// An HDR photo (PQ or HLG, BT.2020) mapped to SDR sRGB by the mapper video frames go through.
enum HDRPhoto {
    /// 8-bit sRGB of a reduced HDR picture; alpha kept, as 8 bits.
    static func toneMapped(_ picture: PixelBuffer, _ mapper: HDRToneMapper) -> PixelBuffer {
        let count = picture.width * picture.height
        let colour = picture.channels >= 3
        let hasAlpha = picture.channels == 2 || picture.channels == 4
        // The mapper takes RGB as 16-bit samples in the machine's order.
        var samples = [UInt16](repeating: 0, count: count * 3)
        picture.bytes.withUnsafeBufferPointer { bytes in
            for pixel in 0..<count {
                for channel in 0..<3 {
                    let source = (pixel * picture.channels + (colour ? channel : 0)) * picture.bytesPerSample
                    samples[pixel * 3 + channel] = picture.bytesPerSample == 2
                        ? UInt16(bytes[source]) << 8 | UInt16(bytes[source + 1]) : UInt16(bytes[source]) * 257
                }
            }
        }
        var rgb = [UInt8](repeating: 0, count: count * 3)
        samples.withUnsafeBufferPointer { input in
            rgb.withUnsafeMutableBufferPointer { output in mapper.map(input, count: count, into: output.baseAddress!) }
        }
        guard hasAlpha else { return PixelBuffer(width: picture.width, height: picture.height, channels: 3, bytes: rgb) }
        return PixelBuffer(width: picture.width, height: picture.height, channels: 4) { destination in
            picture.bytes.withUnsafeBufferPointer { bytes in
                for pixel in 0..<count {
                    for channel in 0..<3 { destination[pixel * 4 + channel] = rgb[pixel * 3 + channel] }
                    let alpha = (pixel * picture.channels + picture.channels - 1) * picture.bytesPerSample
                    destination[pixel * 4 + 3] = PixelBuffer.eightBitSample(bytes, at: alpha, bytesPerSample: picture.bytesPerSample)
                }
            }
        }
    }
}
