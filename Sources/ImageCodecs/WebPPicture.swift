import FileIO
import Reporting
import Imaging
import JPEGCodec
import PNGCodec
import WebPCodec

/// A WebP picture: orientation from its EXIF chunk (else XMP), its ICC profile, and only the
/// rect's rows and columns converted (libwebp's cropping). An animation gives its first frame.
public struct WebPPicture: SourcePicture {
    public let storedWidth: Int
    public let storedHeight: Int
    public let orientation: Orientation
    public let warnings: [String]
    public let color: ColorDescription?
    public var exif: [UInt8]? { decoder.exif }
    public var xmp: [UInt8]? { decoder.xmp }
    public var subsampling: ChromaSubsampling? { nil }
    public var keepsStoredPixels: Bool { true }
    public let workingBytes: Int
    public var facts: PictureFacts {
        PictureFacts(format: "webp", mime: "image/webp", codec: decoder.isAnimated ? "webp-animation" : decoder.isLossless ? "vp8l" : "vp8",
                     bitDepth: 8, hasAlpha: decoder.hasAlpha, frames: decoder.frameCount,
                     embeddedThumbnail: exif.flatMap { ExifBlock($0)?.thumbnailSize })
    }
    private let decoder: WebPDecoder

    init(file: InputFile, opening: PictureOpening) throws {
        // libwebp decodes from memory; a WebP holds at most 16383x16383 pixels, so its file is small beside them.
        decoder = opening.readsPixels ? try WebPDecoder(bytes: try file.contents()) : try WebPDecoder(headerOf: file)
        try opening.checkPixels(width: decoder.width, height: decoder.height)
        storedWidth = decoder.width
        storedHeight = decoder.height
        var warnings: [String] = []
        orientation = Orientation.stated(exif: decoder.exif, xmp: decoder.xmp, warnings: &warnings)
        if decoder.isAnimated && opening.readsPixels { warnings.append(Self.chooseFrame(of: decoder, at: opening.animationTime)) }
        self.warnings = warnings
        color = decoder.iccProfile.map { ColorDescription(iccProfile: $0) }
        // The file, and libwebp's rows of the whole width (or the whole canvas of an animation).
        workingBytes = (file.size ?? 0) + (decoder.isAnimated ? storedWidth * storedHeight * 8 : storedWidth * 64 * 4)
    }

    public var isAnimation: Bool { decoder.isAnimated }

    /// Sets the decoder on the frame shown at `time` (the first without one); what was read, said
    /// as a warning: a still picture was asked for, and an animation has many.
    static func chooseFrame(of decoder: WebPDecoder, at time: AnimationTime?) -> String {
        guard let time else { return "animated WebP: its first frame was read" }
        let durations = decoder.frameDurations
        let total = durations.reduce(0, +)
        let milliseconds: Double
        switch time {
        case .seconds(let seconds): milliseconds = seconds * 1000
        case .fraction(let fraction): milliseconds = fraction * Double(total)
        }
        var end = 0
        for (index, duration) in durations.enumerated() {
            end += duration
            if Double(end) > milliseconds {
                decoder.frameIndex = index
                return "animated WebP: frame \(index + 1) of \(durations.count), shown from \(SecondsText.of(Double(end - duration) / 1000)) s, was read"
            }
        }
        decoder.frameIndex = max(0, durations.count - 1)
        return "animated WebP: \(SecondsText.of(milliseconds / 1000)) s is past its end (\(SecondsText.of(Double(total) / 1000)) s): its last frame, \(durations.count), was read"
    }

    /// 1/n of the picture for the largest whole n that keeps it at least twice this large (libwebp's
    /// rescaler averages boxes, and a Lanczos reduction of 2 or more after it hides their edges);
    /// an animation's frames are composed at full size.
    public func reducedSize(atLeast width: Int, _ height: Int) -> (width: Int, height: Int) {
        if decoder.isAnimated { return (storedWidth, storedHeight) }
        let shrink = max(1, min(storedWidth / max(1, 2 * width), storedHeight / max(1, 2 * height)))
        return ((storedWidth + shrink - 1) / shrink, (storedHeight + shrink - 1) / shrink)
    }

    public func readRows(at size: (width: Int, height: Int), into band: (PixelBuffer) -> Void) throws {
        if decoder.isAnimated || size == (storedWidth, storedHeight) {
            band(try pixels(of: PixelRect(x: 0, y: 0, width: storedWidth, height: storedHeight)))
            return
        }
        let bytes = try decoder.decode(scaledWidth: size.width, scaledHeight: size.height)
        band(PixelBuffer(width: size.width, height: size.height, channels: decoder.hasAlpha ? 4 : 3, bytes: bytes))
    }

    public func pixels(of rect: PixelRect) throws -> PixelBuffer {
        let bytes = try decoder.decode(x: rect.x, y: rect.y, width: rect.width, height: rect.height)
        return PixelBuffer(width: rect.width, height: rect.height, channels: decoder.hasAlpha ? 4 : 3, bytes: bytes)
    }
}
