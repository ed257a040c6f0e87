import Imaging
import Testing

@Suite struct OrientationTests {
    /// The table of the EXIF specification (TIFF tag 274), written out independently of the code:
    /// the stored pixel that the displayed pixel (x, y) of a W x H stored picture shows.
    static func storedPixel(_ orientation: Int, x: Int, y: Int, w: Int, h: Int) -> (Int, Int) {
        switch orientation {
        case 1: return (x, y)
        case 2: return (w - 1 - x, y)
        case 3: return (w - 1 - x, h - 1 - y)
        case 4: return (x, h - 1 - y)
        case 5: return (y, x)
        case 6: return (y, h - 1 - x)
        case 7: return (w - 1 - y, h - 1 - x)
        case 8: return (w - 1 - y, x)
        default: fatalError()
        }
    }

    /// Every pixel distinct: its samples encode its stored position.
    public static func labelledPicture(width: Int, height: Int, channels: Int, bytesPerSample: Int) -> PixelBuffer {
        var bytes: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                for channel in 0..<channels * bytesPerSample {
                    bytes.append(UInt8(truncatingIfNeeded: x &* 7 &+ y &* 31 &+ channel &* 101))
                }
            }
        }
        return PixelBuffer(width: width, height: height, channels: channels, bytesPerSample: bytesPerSample, bytes: bytes)
    }

    @Test(arguments: Orientation.allCases, [(1, 1), (3, 1), (4, 2), (2, 2)])
    func everyPixelComesFromWhereTheTableSays(orientation: Orientation, format: (channels: Int, bytesPerSample: Int)) {
        let stored = Self.labelledPicture(width: 5, height: 3, channels: format.channels, bytesPerSample: format.bytesPerSample)
        let shown = stored.oriented(orientation)
        #expect((shown.width, shown.height) == (orientation.swapsAxes ? (3, 5) : (5, 3)))
        for y in 0..<shown.height {
            for x in 0..<shown.width {
                let (sx, sy) = Self.storedPixel(orientation.rawValue, x: x, y: y, w: 5, h: 3)
                #expect(shown.pixel(x: x, y: y) == stored.pixel(x: sx, y: sy), "\(orientation) at \(x),\(y)")
            }
        }
    }
}
