import Imaging

/// A picture's 8-bit red, green, blue and alpha samples, whatever its layout (grey, grey and alpha,
/// RGB, RGBA; 8 or 16 bits): what every placeholder and hash reads, as their references read a
/// Pillow image converted to RGB(A).
struct RGBSamples {
    let width: Int
    let height: Int
    /// Four samples a pixel, rows top to bottom.
    let rgba: [UInt8]
    let hasAlpha: Bool

    init(_ picture: PixelBuffer) {
        width = picture.width
        height = picture.height
        hasAlpha = picture.channels == 2 || picture.channels == 4
        var rgba = [UInt8](repeating: 255, count: picture.width * picture.height * 4)
        picture.bytes.withUnsafeBufferPointer { bytes in
            let channels = picture.channels, depth = picture.bytesPerSample
            for pixel in 0..<(picture.width * picture.height) {
                let start = pixel * channels * depth
                func sample(_ channel: Int) -> UInt8 {
                    PixelBuffer.eightBitSample(bytes, at: start + channel * depth, bytesPerSample: depth)
                }
                if channels >= 3 {
                    rgba[pixel * 4] = sample(0)
                    rgba[pixel * 4 + 1] = sample(1)
                    rgba[pixel * 4 + 2] = sample(2)
                    if channels == 4 { rgba[pixel * 4 + 3] = sample(3) }
                } else {
                    let grey = sample(0)
                    rgba[pixel * 4] = grey
                    rgba[pixel * 4 + 1] = grey
                    rgba[pixel * 4 + 2] = grey
                    if channels == 2 { rgba[pixel * 4 + 3] = sample(1) }
                }
            }
        }
        self.rgba = rgba
    }

    /// Pillow's `convert("L")`: ITU-R 601-2 luma in 16-bit fixed point, rounded; alpha ignored.
    var luma: [UInt8] {
        (0..<(width * height)).map { pixel in
            let r = UInt32(rgba[pixel * 4]), g = UInt32(rgba[pixel * 4 + 1]), b = UInt32(rgba[pixel * 4 + 2])
            return UInt8((r * 19595 + g * 38470 + b * 7471 + 0x8000) >> 16)
        }
    }
}
