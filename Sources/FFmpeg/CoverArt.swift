import CFFmpeg
import FileIO
import Imaging

/// The picture a media file carries as cover art: an attached-picture stream (MP4 `covr`, a
/// Matroska image attachment, MP3 and M4A artwork), decoded.
public final class CoverArt {
    private let frame: Frame

    /// The first attached picture of `file`; nil when it has none. One over `limits` is refused
    /// before it is decoded.
    public static func picture(in file: InputFile, limits: DecodeLimits = DecodeLimits()) throws -> CoverArt? {
        let format = try FormatContext(file: file, limits: limits)
        guard let index = (0..<format.streamCount).first(where: { format.stream($0).pointee.disposition & AV_DISPOSITION_ATTACHED_PIC != 0 }) else {
            return nil
        }
        let stream = format.stream(index)
        guard stream.pointee.attached_pic.size > 0 else { return nil }
        var size = format.frameSize(ofStream: index)
        if size.width == 0 || size.height == 0 {
            // MP4's covr states no size (probing's decoder may have refused it): the picture's own header does.
            let picture = UnsafeRawBufferPointer(start: stream.pointee.attached_pic.data, count: Int(stream.pointee.attached_pic.size))
            size = Self.statedSize(of: picture) ?? size
        }
        let reservation = try limits.reserveVideoFrame(width: size.width, height: size.height, beside: format.indexBytes)
        let decoder = try Decoder(stream: stream, threads: 1, maxPixels: limits.videoPixels)
        let packet = Packet()
        try FFmpegError.check(av_packet_ref(packet.pointer, &stream.pointee.attached_pic), "cannot read the cover art")
        try FFmpegError.check(decoder.send(packet), "cannot decode the cover art")
        decoder.sendEndOfStream()
        let frame = Frame()
        guard try decoder.receive(into: frame) == .frame else { throw VideoError.noDecodableFrame(cause: "the cover art holds no picture") }
        return CoverArt(frame: frame, reservation: reservation)
    }

    /// The size a PNG's IHDR or a JPEG's frame header states; nil for anything else.
    static func statedSize(of picture: UnsafeRawBufferPointer) -> (width: Int, height: Int)? {
        let bytes = picture.bindMemory(to: UInt8.self)
        func big(_ offset: Int, _ count: Int) -> Int? {
            guard offset >= 0, offset + count <= bytes.count else { return nil }
            return (offset..<(offset + count)).reduce(0) { $0 << 8 | Int(bytes[$1]) }
        }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]), let width = big(16, 4), let height = big(20, 4) { return (width, height) }
        guard bytes.starts(with: [0xFF, 0xD8]) else { return nil }
        var offset = 2
        // Marker segments up to the frame header (SOF0 to SOF15 but DHT, JPG and DAC).
        while let marker = big(offset, 2), marker >> 8 == 0xFF, let length = big(offset + 2, 2) {
            let code = marker & 0xFF
            if (0xC0...0xCF).contains(code) && ![0xC4, 0xC8, 0xCC].contains(code) {
                guard let height = big(offset + 5, 2), let width = big(offset + 7, 2) else { return nil }
                return (width, height)
            }
            if code == 0xDA { return nil }
            offset += 2 + length
        }
        return nil
    }

    private init(frame: Frame, reservation: MemoryBudget.Reservation?) {
        self.frame = frame
        self.reservation = reservation
    }

    /// The memory it holds of the run's budget, for as long as it lives.
    private let reservation: MemoryBudget.Reservation?

    public var width: Int { frame.width }
    public var height: Int { frame.height }

    /// The picture as RGB or RGBA pixels of the given size.
    public func pixels(width: Int, height: Int) throws -> PixelBuffer {
        try FrameConverter.pixels(of: frame, width: width, height: height)
    }
}
