import CFFmpeg
import Imaging

/// Turns a decoded frame into RGB (or RGBA, when the source has alpha) pixels of a given size
/// through libswscale, with the frame's own YUV matrix and range.
public enum FrameConverter {
    /// The colour matrix and range a YUV frame is to be read with.
    struct Colour: Equatable {
        /// One of swscale's SWS_CS_* coefficient sets.
        let matrix: Int32
        let isFullRange: Bool
    }

    static func pixels(of frame: Frame, width: Int, height: Int) throws -> PixelBuffer {
        let source = frame.pointer
        let sourceFormat = AVPixelFormat(rawValue: source.pointee.format)
        guard let descriptor = av_pix_fmt_desc_get(sourceFormat) else {
            throw FFmpegError("unknown pixel format", code: cffmpeg_averror(EINVAL))
        }
        let hasAlpha = descriptor.pointee.flags & UInt64(AV_PIX_FMT_FLAG_ALPHA) != 0
        let channels = hasAlpha ? 4 : 3
        let isDownscale = width < frame.width || height < frame.height
        // Area averaging when shrinking, bicubic otherwise; accurate rounding and full chroma
        // interpolation so that colours come out within a level or two (colour bars within 1 level,
        // where swscale's fast path is off by up to 3 for 40 ms less at 1080p).
        let flags = (isDownscale ? SWS_AREA : SWS_BICUBIC) | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT | SWS_FULL_CHR_H_INP
        let targetFormat = hasAlpha ? AV_PIX_FMT_RGBA : AV_PIX_FMT_RGB24
        let scaler = sws_alloc_context()
        guard let context = scaler else { throw FFmpegError("cannot allocate a scaler", code: cffmpeg_averror(ENOMEM)) }
        defer { sws_freeContext(scaler) }
        let settings: [(String, Int64)] = [
            ("srcw", Int64(frame.width)), ("srch", Int64(frame.height)), ("src_format", Int64(sourceFormat.rawValue)),
            ("dstw", Int64(width)), ("dsth", Int64(height)), ("dst_format", Int64(targetFormat.rawValue)),
            ("sws_flags", Int64(flags)),
            // Slices on every core: at 1080p, 55 ms on one core, 30 on two.
            ("threads", 0),
        ]
        for (name, value) in settings {
            try FFmpegError.check(av_opt_set_int(UnsafeMutableRawPointer(context), name, value, 0), "cannot set up the scaler")
        }
        try FFmpegError.check(sws_init_context(context, nil, nil),
                              "cannot convert \(String(cString: descriptor.pointee.name)) pictures")
        if descriptor.pointee.flags & UInt64(AV_PIX_FMT_FLAG_RGB) == 0 && descriptor.pointee.nb_components >= 3 {
            let colour = colour(of: frame, formatName: String(cString: descriptor.pointee.name))
            _ = sws_setColorspaceDetails(context, sws_getCoefficients(colour.matrix), colour.isFullRange ? 1 : 0,
                                         sws_getCoefficients(SWS_CS_DEFAULT), 1, 0, 1 << 16, 1 << 16)
        }
        let converted = Frame()
        try FFmpegError.check(sws_scale_frame(context, converted.pointer, source), "cannot convert the picture")

        let rowBytes = width * channels
        let stride = Int(converted.pointer.pointee.linesize.0)
        guard let rows = converted.pointer.pointee.data.0 else {
            throw FFmpegError("cannot convert the picture", code: cffmpeg_averror(ENOMEM))
        }
        return PixelBuffer(width: width, height: height, channels: channels) { pixels in
            for row in 0..<height {
                pixels.baseAddress!.advanced(by: row * rowBytes).copyMemory(from: rows + row * stride, byteCount: rowBytes)
            }
        }
    }

    /// The frame's matrix; when unstated, BT.709 for HD and BT.601 below, as players assume.
    static func colour(of frame: Frame, formatName: String) -> Colour {
        let matrix: Int32
        switch frame.pointer.pointee.colorspace {
        case AVCOL_SPC_BT709: matrix = SWS_CS_ITU709
        case AVCOL_SPC_BT2020_NCL, AVCOL_SPC_BT2020_CL: matrix = SWS_CS_BT2020
        case AVCOL_SPC_FCC: matrix = SWS_CS_FCC
        case AVCOL_SPC_SMPTE240M: matrix = SWS_CS_SMPTE240M
        case AVCOL_SPC_BT470BG, AVCOL_SPC_SMPTE170M: matrix = SWS_CS_ITU601
        default: matrix = frame.height >= 720 ? SWS_CS_ITU709 : SWS_CS_ITU601
        }
        let isFullRange = frame.pointer.pointee.color_range == AVCOL_RANGE_JPEG || formatName.hasPrefix("yuvj")
        return Colour(matrix: matrix, isFullRange: isFullRange)
    }
}
