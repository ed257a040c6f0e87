import CPNG

/// The samples of a pixel as PNG stores them.
public struct PNGPixelLayout: Sendable, Equatable {
    public enum Channels: Sendable, Equatable {
        case gray, grayAlpha, rgb, rgba

        public var count: Int {
            switch self {
            case .gray: return 1
            case .grayAlpha: return 2
            case .rgb: return 3
            case .rgba: return 4
            }
        }

        var colorType: Int32 {
            switch self {
            case .gray: return PNG_COLOR_TYPE_GRAY
            case .grayAlpha: return PNG_COLOR_TYPE_GRAY_ALPHA
            case .rgb: return PNG_COLOR_TYPE_RGB
            case .rgba: return PNG_COLOR_TYPE_RGB_ALPHA
            }
        }
    }

    public var channels: Channels
    /// 8, or 16 with samples stored big-endian as PNG has them.
    public var bitDepth: Int

    public init(channels: Channels, bitDepth: Int = 8) {
        self.channels = channels
        self.bitDepth = bitDepth
    }

    public var bytesPerPixel: Int { channels.count * bitDepth / 8 }
}
