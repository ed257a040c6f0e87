import Imaging

/// The 8-bit colour the formats that hold no more (WebP, AVIF) are given.
extension PixelBuffer {
    /// 8-bit RGB or RGBA: gray spread to three channels, 16-bit samples rounded.
    func eightBitColour(channels: Int) -> [UInt8] {
        let pixels = self
        if pixels.bytesPerSample == 1 && pixels.channels == channels { return pixels.bytes }
        let count = pixels.width * pixels.height
        let colours = pixels.channels <= 2 ? 1 : 3
        var result = [UInt8](repeating: 0, count: count * channels)
        pixels.bytes.withUnsafeBufferPointer { source in
            let step = pixels.bytesPerSample
            for pixel in 0..<count {
                let base = pixel * pixels.channels * step
                let sample = { (channel: Int) -> UInt8 in
                    PixelBuffer.eightBitSample(source, at: base + step * channel, bytesPerSample: step)
                }
                for channel in 0..<3 { result[pixel * channels + channel] = sample(colours == 1 ? 0 : channel) }
                if channels == 4 { result[pixel * channels + 3] = sample(colours) }
            }
        }
        return result
    }
}
