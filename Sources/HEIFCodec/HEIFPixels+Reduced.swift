extension HEIFPixels {
    /// The top-left `width` x `height` pixels reduced by `factor` in each direction: each pixel
    /// the rounded mean of the ones it covers (fewer at the right and bottom edges), in 16 bits
    /// (big-endian; 8-bit samples times 257), as `HEVCTileReduction` gives the grid's other tiles.
    func reduced(by factor: Int, width: Int, height: Int) -> HEIFPixels {
        let width = min(width, self.width), height = min(height, self.height)
        let reducedWidth = (width + factor - 1) / factor, reducedHeight = (height + factor - 1) / factor
        let samples = channels, wide = bytesPerSample == 2
        var result = [UInt8](repeating: 0, count: reducedWidth * reducedHeight * samples * 2)
        var sums = [Int](repeating: 0, count: samples)
        bytes.withUnsafeBufferPointer { source in
            for outY in 0..<reducedHeight {
                let top = outY * factor, bottom = min(top + factor, height)
                for outX in 0..<reducedWidth {
                    let left = outX * factor, right = min(left + factor, width)
                    for channel in 0..<samples { sums[channel] = 0 }
                    for y in top..<bottom {
                        for x in left..<right {
                            let at = (y * self.width + x) * samples
                            for channel in 0..<samples {
                                sums[channel] += wide ? Int(source[2 * (at + channel)]) << 8 | Int(source[2 * (at + channel) + 1])
                                                      : Int(source[at + channel])
                            }
                        }
                    }
                    let count = (bottom - top) * (right - left)
                    let at = (outY * reducedWidth + outX) * samples
                    for channel in 0..<samples {
                        let mean = ((wide ? sums[channel] : sums[channel] * 257) + count / 2) / count
                        result[2 * (at + channel)] = UInt8(mean >> 8)
                        result[2 * (at + channel) + 1] = UInt8(mean & 0xFF)
                    }
                }
            }
        }
        return HEIFPixels(width: reducedWidth, height: reducedHeight, channels: channels, bytesPerSample: 2, bytes: result)
    }
}
