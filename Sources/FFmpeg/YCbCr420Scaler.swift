import CFFmpeg
import Imaging

/// A picture as the three planes H.264 for the web codes: 8-bit 4:2:0, BT.709, limited range.
public struct YCbCr420Picture: Sendable {
    public let luma: PixelBuffer
    public let cb: PixelBuffer
    public let cr: PixelBuffer

    public var width: Int { luma.width }
    public var height: Int { luma.height }

    /// The picture turned by `orientation`, plane by plane (its sides even, as 4:2:0 keeps them).
    func oriented(_ orientation: Orientation) -> YCbCr420Picture {
        orientation == .identity ? self
            : YCbCr420Picture(luma: luma.oriented(orientation), cb: cb.oriented(orientation), cr: cr.oriented(orientation))
    }
}

/// Scales SDR Y'CbCr frames straight to `YCbCr420Picture`s of one size, with one libswscale
/// context kept from frame to frame: no RGB in between. A web video's frames went from Y'CbCr
/// to RGB and back, two passes of libswscale that were a third of a 1080p transcode's time.
/// Only frames whose matrix is already BT.709 come this way (libswscale changes the range
/// between Y'CbCr formats, not the matrix); the others go through RGB.
public final class YCbCr420Scaler {
    let width: Int
    let height: Int
    private let threads: Int
    private var context: OpaquePointer?
    /// What the context was made for: the frames' size and format.
    private var source: (width: Int32, height: Int32, format: Int32, isFullRange: Bool)?

    /// Scales to `width` x `height` (even); `threads` is libswscale's slices (0 for every core).
    init(width: Int, height: Int, threads: Int) {
        self.width = width
        self.height = height
        self.threads = threads
    }

    deinit { sws_freeContext(context) }

    /// Whether `frame` can be scaled here: SDR Y'CbCr of three components without alpha, its
    /// matrix BT.709 (as stated, or assumed for HD).
    static func accepts(_ frame: Frame) -> Bool {
        guard let descriptor = av_pix_fmt_desc_get(AVPixelFormat(rawValue: frame.pointer.pointee.format)) else { return false }
        let flags = descriptor.pointee.flags
        return flags & UInt64(AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_ALPHA | AV_PIX_FMT_FLAG_PAL | AV_PIX_FMT_FLAG_HWACCEL) == 0
            && descriptor.pointee.nb_components == 3 && FrameConverter.hdrTransfer(of: frame) == nil
            && FrameConverter.colour(of: frame).matrix == .bt709
    }

    /// `frame` (one `accepts`) at this scaler's size.
    func scaled(_ frame: Frame) throws -> YCbCr420Picture {
        let pointer = frame.pointer.pointee
        let isFullRange = FrameConverter.colour(of: frame).isFullRange
        if source.map({ $0 != (pointer.width, pointer.height, pointer.format, isFullRange) }) ?? true {
            try makeContext(for: frame, isFullRange: isFullRange)
        }
        let planes = (Array(repeating: UInt8(0), count: width * height), Array(repeating: UInt8(0), count: width / 2 * (height / 2)),
                      Array(repeating: UInt8(0), count: width / 2 * (height / 2)))
        var (luma, cb, cr) = planes
        let scaled = frame.withPlanes { input -> Int32 in
            luma.withUnsafeMutableBufferPointer { luma in
                cb.withUnsafeMutableBufferPointer { cb in
                    cr.withUnsafeMutableBufferPointer { cr in
                        var sourcePlanes: [UnsafePointer<UInt8>?] = [UnsafePointer(input.data.0), UnsafePointer(input.data.1),
                                                                     UnsafePointer(input.data.2), nil]
                        var sourceStrides: [Int32] = [input.linesize.0, input.linesize.1, input.linesize.2, 0]
                        var destination: [UnsafeMutablePointer<UInt8>?] = [luma.baseAddress, cb.baseAddress, cr.baseAddress, nil]
                        var strides: [Int32] = [Int32(width), Int32(width / 2), Int32(width / 2), 0]
                        return sws_scale(context, &sourcePlanes, &sourceStrides, 0, pointer.height, &destination, &strides)
                    }
                }
            }
        }
        try FFmpegError.check(scaled, "cannot scale the picture")
        return YCbCr420Picture(luma: PixelBuffer(width: width, height: height, channels: 1, bytes: luma),
                               cb: PixelBuffer(width: width / 2, height: height / 2, channels: 1, bytes: cb),
                               cr: PixelBuffer(width: width / 2, height: height / 2, channels: 1, bytes: cr))
    }

    private func makeContext(for frame: Frame, isFullRange: Bool) throws {
        sws_freeContext(context)
        context = nil
        source = nil
        // Bicubic, as FFmpeg's own scale filter: the same picture a site's ffmpeg recipe gives.
        context = try FrameConverter.scaler(from: frame, to: AV_PIX_FMT_YUV420P, width: width, height: height, flags: SWS_BICUBIC,
                                            threads: threads, extra: [("src_range", isFullRange ? 1 : 0), ("dst_range", 0)])
        let pointer = frame.pointer.pointee
        source = (pointer.width, pointer.height, pointer.format, isFullRange)
    }
}

extension VideoSource {
    /// `frame` upright at `geometry` as 8-bit 4:2:0 BT.709 planes, by `scaler`; nil where the
    /// frame needs RGB on the way (HDR, another matrix, alpha): `uprightPixels` makes those.
    public func uprightYCbCr420(of frame: Frame, _ geometry: DisplayGeometry, scaler: inout YCbCr420Scaler?,
                                deinterlaces: Bool = true, threads: Int = 0) throws -> YCbCr420Picture? {
        guard YCbCr420Scaler.accepts(frame), geometry.scaledWidth % 2 == 0, geometry.scaledHeight % 2 == 0 else { return nil }
        try holdMemory(for: frame, width: geometry.scaledWidth, height: geometry.scaledHeight)
        if deinterlaces && Deinterlacer.isInterlaced(frame) { try Deinterlacer.deinterlace(frame) }
        if scaler?.width != geometry.scaledWidth || scaler?.height != geometry.scaledHeight {
            scaler = YCbCr420Scaler(width: geometry.scaledWidth, height: geometry.scaledHeight, threads: threads)
        }
        return try scaler!.scaled(frame).oriented(geometry.orientation)
    }
}
