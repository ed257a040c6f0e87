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
        let format = try FormatContext(file: file, maxPixels: limits.videoPixels)
        guard let index = (0..<format.streamCount).first(where: { format.stream($0).pointee.disposition & AV_DISPOSITION_ATTACHED_PIC != 0 }) else {
            return nil
        }
        let stream = format.stream(index)
        guard stream.pointee.attached_pic.size > 0 else { return nil }
        let size = format.frameSize(ofStream: index)
        let reservation = try limits.reserveVideoFrame(width: size.width, height: size.height)
        let decoder = try Decoder(stream: stream, threads: 1, maxPixels: limits.videoPixels)
        let packet = Packet()
        try FFmpegError.check(av_packet_ref(packet.pointer, &stream.pointee.attached_pic), "cannot read the cover art")
        try FFmpegError.check(decoder.send(packet), "cannot decode the cover art")
        decoder.sendEndOfStream()
        let frame = Frame()
        guard try decoder.receive(into: frame) == .frame else { throw VideoError.noDecodableFrame(cause: "the cover art holds no picture") }
        return CoverArt(frame: frame, reservation: reservation)
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
