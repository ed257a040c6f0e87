/// Where a filled thumbnail is cut from the scaled picture that covers its box.
public enum CropGravity: String, Sendable, Codable, CaseIterable {
    case centre, top, bottom, left, right
    /// The part with the most edges, saturated colour and skin tones (libvips's attention crop).
    case attention

    /// The `width` x `height` window of `picture` this gravity keeps.
    public func window(in picture: PixelBuffer, width: Int, height: Int) -> PixelRect {
        let spareX = picture.width - width, spareY = picture.height - height
        precondition(spareX >= 0 && spareY >= 0)
        switch self {
        case .centre: return PixelRect(x: spareX / 2, y: spareY / 2, width: width, height: height)
        case .top: return PixelRect(x: spareX / 2, y: 0, width: width, height: height)
        case .bottom: return PixelRect(x: spareX / 2, y: spareY, width: width, height: height)
        case .left: return PixelRect(x: 0, y: spareY / 2, width: width, height: height)
        case .right: return PixelRect(x: spareX, y: spareY / 2, width: width, height: height)
        case .attention: return AttentionWindow.best(in: picture, width: width, height: height)
        }
    }
}

/// libvips's attention crop, in its parts: each pixel scores for an edge (the luma gradient), for
/// saturation, and for a skin tone; the window kept is the one whose pixels score most, the one
/// nearest the centre among equals.
enum AttentionWindow {
    static func best(in picture: PixelBuffer, width: Int, height: Int) -> PixelRect {
        let spareX = picture.width - width, spareY = picture.height - height
        if spareX == 0 && spareY == 0 { return PixelRect(x: 0, y: 0, width: width, height: height) }
        let scores = score(picture)
        // Sums of the scores of every column (when the window slides across) or row (down).
        let across = spareX > 0
        let lines = across ? picture.width : picture.height
        var sums = [Double](repeating: 0, count: lines)
        for y in 0..<picture.height {
            for x in 0..<picture.width {
                sums[across ? x : y] += scores[y * picture.width + x]
            }
        }
        let span = across ? width : height, spare = across ? spareX : spareY
        var total = sums[0..<span].reduce(0, +)
        var best = (offset: 0, total: total, distance: spare)
        for offset in 1...spare {
            total += sums[offset + span - 1] - sums[offset - 1]
            let distance = abs(2 * offset - spare)
            if total > best.total + 1e-9 || (abs(total - best.total) <= 1e-9 && distance < best.distance) {
                best = (offset, total, distance)
            }
        }
        return across ? PixelRect(x: best.offset, y: spareY / 2, width: width, height: height)
                      : PixelRect(x: spareX / 2, y: best.offset, width: width, height: height)
    }

    /// Each pixel's score, in 8-bit terms: the luma gradient, the saturation (the spread of its
    /// channels), and a bonus for a skin tone (Kovac's RGB rule, which vips's Lab test approximates).
    static func score(_ picture: PixelBuffer) -> [Double] {
        let width = picture.width, height = picture.height
        let colour = picture.channels >= 3
        var luma = [Double](repeating: 0, count: width * height)
        var scores = [Double](repeating: 0, count: width * height)
        picture.bytes.withUnsafeBufferPointer { bytes in
            let sampleBytes = picture.bytesPerSample, pixelBytes = picture.bytesPerPixel
            for index in 0..<(width * height) {
                let base = index * pixelBytes
                func sample(_ channel: Int) -> Int {
                    Int(PixelBuffer.eightBitSample(bytes, at: base + channel * sampleBytes, bytesPerSample: sampleBytes))
                }
                let (r, g, b) = colour ? (sample(0), sample(1), sample(2)) : (sample(0), sample(0), sample(0))
                luma[index] = 0.299 * Double(r) + 0.587 * Double(g) + 0.114 * Double(b)
                let high = max(r, g, b), low = min(r, g, b)
                var score = Double(high - low) * 0.5
                if r > 95 && g > 40 && b > 20 && high - low > 15 && abs(r - g) > 15 && r > g && r > b { score += 100 }
                scores[index] = score
            }
        }
        for y in 0..<height {
            for x in 0..<width {
                let left = luma[y * width + max(0, x - 1)], right = luma[y * width + min(width - 1, x + 1)]
                let up = luma[max(0, y - 1) * width + x], down = luma[min(height - 1, y + 1) * width + x]
                scores[y * width + x] += abs(right - left) + abs(down - up)
            }
        }
        return scores
    }
}
