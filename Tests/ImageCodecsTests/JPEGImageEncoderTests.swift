@testable import ImageCodecs
import Imaging
import Testing

@Suite struct JPEGImageEncoderTests {
    @Test func alphaIsCompositedOnWhite() {
        // Red transparent, green half opaque, blue opaque.
        let pixels = PixelBuffer(width: 3, height: 1, channels: 4, bytes: [255, 0, 0, 0, 0, 255, 0, 128, 0, 0, 255, 255])
        #expect(JPEGImageEncoder.eightBitOpaque(pixels, colours: 3) == [255, 255, 255, 127, 255, 127, 0, 0, 255])
    }

    @Test func sixteenBitSamplesRoundToEightBits() {
        // 0x1234 rounds to 0x12; 0xFF80 to 0xFF; gray and alpha 0xFFFF: opaque.
        let pixels = PixelBuffer(width: 2, height: 1, channels: 2, bytesPerSample: 2, bytes: [0x12, 0x34, 0xFF, 0xFF, 0xFF, 0x80, 0xFF, 0xFF])
        #expect(JPEGImageEncoder.eightBitOpaque(pixels, colours: 1) == [0x12, 0xFF])
    }

    @Test func eightBitOpaquePixelsPassAsTheyAre() {
        let pixels = PixelBuffer(width: 2, height: 1, channels: 3, bytes: [1, 2, 3, 4, 5, 6])
        #expect(JPEGImageEncoder.eightBitOpaque(pixels, colours: 3) == [1, 2, 3, 4, 5, 6])
    }
}
