/// 8-bit R'G'B' (full range) to 8-bit BT.709 limited-range Y'CbCr 4:2:0, written into an
/// encoder's planes: luma per pixel, chroma from each 2x2 block's mean R'G'B' (the conversion
/// is linear in R'G'B', so this is the mean of the block's chroma). libswscale's accurate path
/// did this at 8 ms a 1080p frame, an eighth of an HDR web video's time; fixed point with
/// 16 fraction bits keeps every code within one of the exact value.
enum RGBToYCbCr420 {
    // BT.709's weights scaled to limited range (219 and 224 steps of 255), times 2^16.
    private static let lumaRed = 11966, lumaGreen = 40254, lumaBlue = 4064
    private static let cbRed = -6596, cbGreen = -22189, cbBlue = 28784
    private static let crRed = 28784, crGreen = -26145, crBlue = -2639
    private static let half = 1 << 15

    /// Converts `width` x `height` (even) pixels of `channels` (3 or 4, alpha ignored) bytes.
    static func convert(_ rgb: UnsafeRawBufferPointer, channels: Int, width: Int, height: Int,
                        luma: UnsafeMutablePointer<UInt8>, lumaStride: Int,
                        cb: UnsafeMutablePointer<UInt8>, cr: UnsafeMutablePointer<UInt8>, chromaStride: Int) {
        let pixels = rgb.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let rowBytes = width * channels
        for pair in 0..<(height / 2) {
            let top = pixels + 2 * pair * rowBytes, bottom = top + rowBytes
            let lumaTop = luma + 2 * pair * lumaStride, lumaBottom = lumaTop + lumaStride
            let cbRow = cb + pair * chromaStride, crRow = cr + pair * chromaStride
            for block in 0..<(width / 2) {
                let left = 2 * block, right = left + 1
                let sums = (pixel(top, left, channels, into: lumaTop), pixel(top, right, channels, into: lumaTop),
                            pixel(bottom, left, channels, into: lumaBottom), pixel(bottom, right, channels, into: lumaBottom))
                let red = sums.0.r + sums.1.r + sums.2.r + sums.3.r
                let green = sums.0.g + sums.1.g + sums.2.g + sums.3.g
                let blue = sums.0.b + sums.1.b + sums.2.b + sums.3.b
                // The block's sums are four times its mean: two more fraction bits.
                cbRow[block] = UInt8(truncatingIfNeeded: (128 << 18 + cbRed * red + cbGreen * green + cbBlue * blue + half << 2) >> 18)
                crRow[block] = UInt8(truncatingIfNeeded: (128 << 18 + crRed * red + crGreen * green + crBlue * blue + half << 2) >> 18)
            }
        }
    }

    /// Writes one pixel's luma and gives its R'G'B'.
    @inline(__always)
    private static func pixel(_ row: UnsafePointer<UInt8>, _ column: Int, _ channels: Int,
                              into lumaRow: UnsafeMutablePointer<UInt8>) -> (r: Int, g: Int, b: Int) {
        let r = Int(row[column * channels]), g = Int(row[column * channels + 1]), b = Int(row[column * channels + 2])
        lumaRow[column] = UInt8(truncatingIfNeeded: (16 << 16 + lumaRed * r + lumaGreen * g + lumaBlue * b + half) >> 16)
        return (r, g, b)
    }
}
