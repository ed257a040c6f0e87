import CFFmpeg
import Imaging
import WorkerPool

/// Turns a decoded frame into RGB (or RGBA, when the source has alpha) pixels of a given size,
/// with the frame's own YUV matrix and range: 8-bit 4:2:0 at its own size by `YCbCr420Planes`
/// (1080p in a few milliseconds, where libswscale's accurate path takes 35), all else by libswscale.
public enum FrameConverter {
    /// The colour matrix and range a YUV frame is to be read with.
    struct Colour: Equatable {
        let matrix: YCbCrMatrix
        let isFullRange: Bool
    }

    /// `threads`: the scaler's and the tone mapper's; 0 for every core.
    static func pixels(of frame: Frame, width: Int, height: Int, threads: Int = 0) throws -> PixelBuffer {
        let source = frame.pointer
        let sourceFormat = AVPixelFormat(rawValue: source.pointee.format)
        guard let descriptor = av_pix_fmt_desc_get(sourceFormat) else {
            throw FFmpegError("unknown pixel format", code: cffmpeg_averror(EINVAL))
        }
        if let transfer = hdrTransfer(of: frame), descriptor.pointee.flags & UInt64(AV_PIX_FMT_FLAG_RGB) == 0 {
            return try toneMapped(frame, transfer: transfer, width: width, height: height, descriptor: descriptor, threads: threads)
        }
        if width == frame.width && height == frame.height, let rgb = withPlanes420(of: frame, format: sourceFormat, { $0.rgb() }) {
            return rgb
        }
        let hasAlpha = descriptor.pointee.flags & UInt64(AV_PIX_FMT_FLAG_ALPHA) != 0
        let channels = hasAlpha ? 4 : 3
        let targetFormat = hasAlpha ? AV_PIX_FMT_RGBA : AV_PIX_FMT_RGB24
        let converted = try scaled(frame, to: targetFormat, width: width, height: height, descriptor: descriptor, threads: threads)
        return try copyRows(of: converted, width: width, height: height, channels: channels, bytesPerSample: 1)
    }

    /// The frame at `width` x `height` in `targetFormat` through libswscale, read with the frame's
    /// own matrix and range where it turns YUV into RGB.
    static func scaled(_ frame: Frame, to targetFormat: AVPixelFormat, width: Int, height: Int,
                       descriptor: UnsafePointer<AVPixFmtDescriptor>, threads: Int = 0) throws -> Frame {
        let source = frame.pointer
        let isDownscale = width < frame.width || height < frame.height
        // Area averaging when shrinking, bicubic otherwise; accurate rounding and full chroma
        // interpolation so that colours come out within a level or two (colour bars within 1 level,
        // where swscale's fast path is off by up to 3 for 40 ms less at 1080p).
        let flags = (isDownscale ? SWS_AREA : SWS_BICUBIC) | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT | SWS_FULL_CHR_H_INP
        let context = try scaler(from: frame, to: targetFormat, width: width, height: height, flags: flags, threads: threads)
        defer { sws_freeContext(context) }
        let toRGB = av_pix_fmt_desc_get(targetFormat).map { $0.pointee.flags & UInt64(AV_PIX_FMT_FLAG_RGB) != 0 } ?? false
        if toRGB && descriptor.pointee.flags & UInt64(AV_PIX_FMT_FLAG_RGB) == 0 && descriptor.pointee.nb_components >= 3 {
            let colour = colour(of: frame)
            _ = sws_setColorspaceDetails(context, sws_getCoefficients(swsColorspace(colour.matrix)), colour.isFullRange ? 1 : 0,
                                         sws_getCoefficients(SWS_CS_DEFAULT), 1, 0, 1 << 16, 1 << 16)
        }
        let converted = Frame()
        try FFmpegError.check(sws_scale_frame(context, converted.pointer, source), "cannot convert the picture")
        return converted
    }

    /// A libswscale context from `frame`'s size and format to `width` x `height` in `targetFormat`,
    /// its slices on `threads` (0 for every core: at 1080p, 55 ms on one core, 30 on two), and
    /// `extra` options (the ranges, for a Y'CbCr target): the one place a scaler is set up. The
    /// caller frees it.
    static func scaler(from frame: Frame, to targetFormat: AVPixelFormat, width: Int, height: Int, flags: Int32, threads: Int,
                       extra: [(String, Int64)] = []) throws -> OpaquePointer {
        guard let context = sws_alloc_context() else { throw FFmpegError("cannot allocate a scaler", code: cffmpeg_averror(ENOMEM)) }
        let source = frame.pointer.pointee
        let settings: [(String, Int64)] = [
            ("srcw", Int64(source.width)), ("srch", Int64(source.height)), ("src_format", Int64(source.format)),
            ("dstw", Int64(width)), ("dsth", Int64(height)), ("dst_format", Int64(targetFormat.rawValue)),
            ("sws_flags", Int64(flags)), ("threads", Int64(WorkerThreads.count(forSetting: threads))),
        ] + extra
        do {
            for (name, value) in settings {
                try FFmpegError.check(av_opt_set_int(UnsafeMutableRawPointer(context), name, value, 0), "cannot set up the scaler")
            }
            let name = av_get_pix_fmt_name(AVPixelFormat(rawValue: source.format)).map { String(cString: $0) } ?? "these"
            try FFmpegError.check(sws_init_context(context, nil, nil), "cannot convert \(name) pictures")
        } catch {
            sws_freeContext(context)
            throw error
        }
        return context
    }

    /// PQ or HLG, from the frame's transfer characteristics.
    static func hdrTransfer(of frame: Frame) -> HDRTransfer? {
        switch frame.pointer.pointee.color_trc {
        case AVCOL_TRC_SMPTE2084: return .pq
        case AVCOL_TRC_ARIB_STD_B67: return .hlg
        default: return nil
        }
    }

    /// The peak the frame's side data states: the content light level's MaxCLL, else the mastering
    /// display's maximum luminance.
    static func peakNits(of frame: Frame) -> Double? {
        if let data = av_frame_get_side_data(frame.pointer, AV_FRAME_DATA_CONTENT_LIGHT_LEVEL),
           data.pointee.size >= MemoryLayout<AVContentLightMetadata>.size, let bytes = data.pointee.data {
            let light = UnsafeRawPointer(bytes).loadUnaligned(as: AVContentLightMetadata.self)
            if light.MaxCLL > 0 { return Double(light.MaxCLL) }
        }
        if let data = av_frame_get_side_data(frame.pointer, AV_FRAME_DATA_MASTERING_DISPLAY_METADATA),
           data.pointee.size >= MemoryLayout<AVMasteringDisplayMetadata>.size, let bytes = data.pointee.data {
            let mastering = UnsafeRawPointer(bytes).loadUnaligned(as: AVMasteringDisplayMetadata.self)
            if mastering.has_luminance != 0, mastering.max_luminance.den > 0, mastering.max_luminance.num > 0 {
                return Double(mastering.max_luminance.num) / Double(mastering.max_luminance.den)
            }
        }
        return nil
    }

    /// An HDR frame scaled as 16-bit Y'CbCr 4:4:4 (no precision lost, no matrix of libswscale's:
    /// its 10-bit-to-RGB48 path read BT.2020 frames with BT.601's), then turned into R'G'B' with
    /// the frame's own matrix and tone mapped to 8-bit sRGB.
    static func toneMapped(_ frame: Frame, transfer: HDRTransfer, width: Int, height: Int,
                           descriptor: UnsafePointer<AVPixFmtDescriptor>, threads: Int = 0) throws -> PixelBuffer {
        if width == frame.width && height == frame.height, let mapped = toneMappedAtOwnSize(frame, transfer: transfer, threads: threads) {
            return mapped
        }
        let converted = try scaled(frame, to: AV_PIX_FMT_YUV444P16LE, width: width, height: height, descriptor: descriptor, threads: threads)
        return try converted.withPlanes { planes in
            guard let luma = planes.data.0, let cb = planes.data.1, let cr = planes.data.2 else {
                throw FFmpegError("cannot convert the picture", code: cffmpeg_averror(ENOMEM))
            }
            let colour = colour(of: frame)
            let mapper = HDRToneMapper(transfer: transfer, peakNits: peakNits(of: frame))
            let strides = (Int(planes.linesize.0), Int(planes.linesize.1), Int(planes.linesize.2))
            return PixelBuffer(width: width, height: height, channels: 3) { pixels in
                let output = UnsafeSendablePointer(pixels.baseAddress!.assumingMemoryBound(to: UInt8.self))
                let planes = (UnsafeSendablePointer(luma), UnsafeSendablePointer(cb), UnsafeSendablePointer(cr))
                // Rows in bands, a band to each core: the mapping is per pixel.
                let workers = max(1, min(WorkerThreads.count(forSetting: threads), height))
                WorkerThreads.run(count: workers) { worker in
                    for row in stride(from: worker, to: height, by: workers) {
                        func samples(_ plane: UnsafeSendablePointer<UInt8>, _ stride: Int) -> UnsafePointer<UInt16> {
                            UnsafeRawPointer(plane.pointer + row * stride).assumingMemoryBound(to: UInt16.self)
                        }
                        mapper.map(y: samples(planes.0, strides.0), cb: samples(planes.1, strides.1), cr: samples(planes.2, strides.2),
                                   count: width, matrix: colour.matrix, isFullRange: colour.isFullRange,
                                   into: output.pointer + row * width * 3)
                    }
                }
            }
        }
    }

    /// A 10 or 12-bit 4:2:0 frame tone mapped at its own size straight from its planes, chroma
    /// brought to every pixel by `ChromaUpsampler`: no 16-bit 4:4:4 copy of the picture (50 MB at
    /// 4K) and no pass of libswscale. Nil for other layouts.
    static func toneMappedAtOwnSize(_ frame: Frame, transfer: HDRTransfer, threads: Int) -> PixelBuffer? {
        frame.withPlanes { source in toneMappedAtOwnSize(frame, planes: source, transfer: transfer, threads: threads) }
    }

    private static func toneMappedAtOwnSize(_ frame: Frame, planes source: AVFrame, transfer: HDRTransfer, threads: Int) -> PixelBuffer? {
        let format = AVPixelFormat(rawValue: source.format)
        let depth: Int
        switch format {
        case AV_PIX_FMT_YUV420P10LE: depth = 10
        case AV_PIX_FMT_YUV420P12LE: depth = 12
        default: return nil
        }
        guard let lumaPlane = source.data.0, let cbPlane = source.data.1, let crPlane = source.data.2,
              frame.width > 0, frame.height > 0 else { return nil }
        let width = frame.width, height = frame.height
        let colour = colour(of: frame)
        let mapper = HDRToneMapper(transfer: transfer, peakNits: peakNits(of: frame))
        let upsampler = ChromaUpsampler(width: width, height: height,
                                        siting: source.chroma_location == AVCHROMA_LOC_CENTER ? .center : .left)
        func samples(_ plane: UnsafeMutablePointer<UInt8>) -> UnsafeSendablePointer<UInt16> {
            UnsafeSendablePointer(UnsafeMutableRawPointer(plane).assumingMemoryBound(to: UInt16.self))
        }
        let planes = (samples(lumaPlane), samples(cbPlane), samples(crPlane))
        let strides = (Int(source.linesize.0) / 2, Int(source.linesize.1) / 2, Int(source.linesize.2) / 2)
        // Codes widened to 16 bits as libswscale widens them (10-bit black 64 is 16-bit 4096);
        // the upsampled chroma comes ×16.
        let lumaShift = UInt16(16 - depth), chromaShift = Int32(12 - depth)
        return PixelBuffer(width: width, height: height, channels: 3) { pixels in
            let output = UnsafeSendablePointer(pixels.baseAddress!.assumingMemoryBound(to: UInt8.self))
            let workers = max(1, min(WorkerThreads.count(forSetting: threads), height))
            WorkerThreads.run(count: workers) { worker in
                let blend = UnsafeMutablePointer<Int32>.allocate(capacity: 2 * upsampler.chromaWidth + 2 * width)
                let wide = UnsafeMutablePointer<UInt16>.allocate(capacity: 3 * width)
                defer {
                    blend.deallocate()
                    wide.deallocate()
                }
                let cbBlend = blend, crBlend = blend + upsampler.chromaWidth
                let cbRow = blend + 2 * upsampler.chromaWidth, crRow = cbRow + width
                let y16 = wide, cb16 = wide + width, cr16 = wide + 2 * width
                for row in stride(from: worker, to: height, by: workers) {
                    upsampler.blendRows(of: planes.1.pointer, stride: strides.1, forLumaRow: row, into: cbBlend)
                    upsampler.blendRows(of: planes.2.pointer, stride: strides.2, forLumaRow: row, into: crBlend)
                    upsampler.spread(cbBlend, into: cbRow)
                    upsampler.spread(crBlend, into: crRow)
                    let luma = planes.0.pointer + row * strides.0
                    for column in 0..<width {
                        y16[column] = UInt16(littleEndian: luma[column]) &<< lumaShift
                        cb16[column] = UInt16(truncatingIfNeeded: cbRow[column] &<< chromaShift).littleEndian
                        cr16[column] = UInt16(truncatingIfNeeded: crRow[column] &<< chromaShift).littleEndian
                        y16[column] = y16[column].littleEndian
                    }
                    mapper.map(y: y16, cb: cb16, cr: cr16, count: width, matrix: colour.matrix, isFullRange: colour.isFullRange,
                               into: output.pointer + row * width * 3)
                }
            }
        }
    }

    /// The frame as 16-bit R'G'B' (big-endian, full range), its own transfer and primaries kept:
    /// 10 and 12-bit pictures keep their precision, HDR stays HDR. Scaled as 16-bit Y'CbCr and turned
    /// into R'G'B' with the frame's matrix here (libswscale's high-depth RGB path misread BT.2020).
    static func rgb16(of frame: Frame, width: Int, height: Int, threads: Int = 0) throws -> PixelBuffer {
        let source = frame.pointer
        guard let descriptor = av_pix_fmt_desc_get(AVPixelFormat(rawValue: source.pointee.format)) else {
            throw FFmpegError("unknown pixel format", code: cffmpeg_averror(EINVAL))
        }
        if descriptor.pointee.flags & UInt64(AV_PIX_FMT_FLAG_RGB) != 0 {
            let converted = try scaled(frame, to: AV_PIX_FMT_RGB48BE, width: width, height: height, descriptor: descriptor, threads: threads)
            return try copyRows(of: converted, width: width, height: height, channels: 3, bytesPerSample: 2)
        }
        let converted = try scaled(frame, to: AV_PIX_FMT_YUV444P16LE, width: width, height: height, descriptor: descriptor, threads: threads)
        return try converted.withPlanes { planes in
            guard let luma = planes.data.0, let cb = planes.data.1, let cr = planes.data.2 else {
                throw FFmpegError("cannot convert the picture", code: cffmpeg_averror(ENOMEM))
            }
            let colour = colour(of: frame)
            return PixelBuffer(width: width, height: height, channels: 3, bytesPerSample: 2) { pixels in
                let output = pixels.baseAddress!.assumingMemoryBound(to: UInt16.self)
                for row in 0..<height {
                    func samples(_ plane: UnsafeMutablePointer<UInt8>, _ stride: Int32) -> UnsafePointer<UInt16> {
                        UnsafeRawPointer(plane + row * Int(stride)).assumingMemoryBound(to: UInt16.self)
                    }
                    colour.matrix.rgb16(y: samples(luma, planes.linesize.0), cb: samples(cb, planes.linesize.1), cr: samples(cr, planes.linesize.2),
                                        count: width, isFullRange: colour.isFullRange, into: output + row * width * 3)
                }
            }
        }
    }

    /// The first plane of a packed frame, rows without padding.
    static func copyRows(of converted: Frame, width: Int, height: Int, channels: Int, bytesPerSample: Int) throws -> PixelBuffer {
        let rowBytes = width * channels * bytesPerSample
        return try converted.withPlanes { planes in
            let stride = Int(planes.linesize.0)
            guard let rows = planes.data.0 else {
                throw FFmpegError("cannot convert the picture", code: cffmpeg_averror(ENOMEM))
            }
            return PixelBuffer(width: width, height: height, channels: channels, bytesPerSample: bytesPerSample) { pixels in
                for row in 0..<height {
                    pixels.baseAddress!.advanced(by: row * rowBytes).copyMemory(from: rows + row * stride, byteCount: rowBytes)
                }
            }
        }
    }

    /// H.273 code points of an HDR frame kept as HDR: its primaries and transfer, RGB, full range.
    static func codePoints(of frame: Frame) -> [UInt8]? {
        guard hdrTransfer(of: frame) != nil else { return nil }
        let primaries = frame.pointer.pointee.color_primaries.rawValue
        return [UInt8(clamping: primaries == 0 ? 9 : primaries), UInt8(clamping: frame.pointer.pointee.color_trc.rawValue), 0, 1]
    }

    /// `body` on the frame's 8-bit 4:2:0 planes, if that is how it is stored (nil if not); the
    /// planes are valid inside `body` only.
    static func withPlanes420<Result>(of frame: Frame, format: AVPixelFormat, _ body: (YCbCr420Planes) throws -> Result) rethrows -> Result? {
        guard format == AV_PIX_FMT_YUV420P || format == AV_PIX_FMT_YUVJ420P, frame.width > 0, frame.height > 0 else {
            return nil
        }
        return try frame.withPlanes { source in
            guard let luma = source.data.0, let cb = source.data.1, let cr = source.data.2 else { return nil }
            let colour = colour(of: frame)
            return try body(YCbCr420Planes(
                width: frame.width, height: frame.height,
                luma: .init(start: luma, stride: Int(source.linesize.0)),
                cb: .init(start: cb, stride: Int(source.linesize.1)),
                cr: .init(start: cr, stride: Int(source.linesize.2)),
                matrix: colour.matrix, isFullRange: colour.isFullRange,
                siting: source.chroma_location == AVCHROMA_LOC_CENTER ? .center : .left))
        }
    }

    /// The frame's matrix and range. An unstated matrix is BT.709 for HD and BT.601 below, as players
    /// assume; the yuvj* formats are full range whatever the frame says.
    static func colour(of frame: Frame) -> Colour {
        let matrix: YCbCrMatrix
        switch frame.pointer.pointee.colorspace {
        case AVCOL_SPC_BT709: matrix = .bt709
        case AVCOL_SPC_BT2020_NCL, AVCOL_SPC_BT2020_CL: matrix = .bt2020
        case AVCOL_SPC_FCC: matrix = .fcc
        case AVCOL_SPC_SMPTE240M: matrix = .smpte240m
        case AVCOL_SPC_BT470BG, AVCOL_SPC_SMPTE170M: matrix = .bt601
        default: matrix = frame.height >= 720 ? .bt709 : .bt601
        }
        let format = av_pix_fmt_desc_get(AVPixelFormat(rawValue: frame.pointer.pointee.format))
        let isJPEGFormat = format.map { String(cString: $0.pointee.name).hasPrefix("yuvj") } ?? false
        let isFullRange = frame.pointer.pointee.color_range == AVCOL_RANGE_JPEG || isJPEGFormat
        return Colour(matrix: matrix, isFullRange: isFullRange)
    }

    /// libswscale's name for a matrix.
    static func swsColorspace(_ matrix: YCbCrMatrix) -> Int32 {
        switch matrix {
        case .bt709: SWS_CS_ITU709
        case .bt2020: SWS_CS_BT2020
        case .fcc: SWS_CS_FCC
        case .smpte240m: SWS_CS_SMPTE240M
        default: SWS_CS_ITU601
        }
    }
}
