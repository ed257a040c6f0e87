import CFFmpeg

/// Turns an interlaced frame (two fields, taken a field period apart, woven row by row) into one
/// picture: the field shown first is kept, and the other field's rows are made from it by
/// edge-directed interpolation (of the three directions through the missing sample, the one whose
/// two neighbours agree best), so a moving edge is not combed and a diagonal is not stairs.
/// Planar formats of 8 to 16 bits, the ones interlaced video comes in; others are left woven.
enum Deinterlacer {
    /// Whether `frame` is flagged interlaced.
    static func isInterlaced(_ frame: Frame) -> Bool { frame.pointer.pointee.interlaced_frame != 0 }

    /// Deinterlaces `frame` in place (copying its buffers first if the decoder still refers to them).
    /// False when its format is not planar.
    @discardableResult
    static func deinterlace(_ frame: Frame) throws -> Bool {
        let pointer = frame.pointer
        guard let descriptor = av_pix_fmt_desc_get(AVPixelFormat(rawValue: pointer.pointee.format)),
              descriptor.pointee.flags & UInt64(AV_PIX_FMT_FLAG_PLANAR) != 0,
              descriptor.pointee.flags & UInt64(AV_PIX_FMT_FLAG_BITSTREAM) == 0 else { return false }
        try FFmpegError.check(av_frame_make_writable(pointer), "cannot deinterlace the picture")
        let components = Int(descriptor.pointee.nb_components)
        let wide = descriptor.pointee.comp.0.depth > 8
        // The rows of the field shown first are kept: even rows when the top field comes first.
        let missingParity = pointer.pointee.top_field_first != 0 ? 1 : 0
        var planes = Set<Int>()
        withUnsafeBytes(of: descriptor.pointee.comp) { raw in
            let comps = raw.bindMemory(to: AVComponentDescriptor.self)
            for index in 0..<components { planes.insert(Int(comps[index].plane)) }
        }
        for plane in planes.sorted() {
            let isChroma = plane == 1 || plane == 2
            let width = isChroma ? -((-frame.width) >> Int(descriptor.pointee.log2_chroma_w)) : frame.width
            let height = isChroma ? -((-frame.height) >> Int(descriptor.pointee.log2_chroma_h)) : frame.height
            let stride = withUnsafeBytes(of: pointer.pointee.linesize) { $0.load(fromByteOffset: plane * 4, as: Int32.self) }
            let data = withUnsafeBytes(of: pointer.pointee.data) { $0.load(fromByteOffset: plane * 8, as: UnsafeMutablePointer<UInt8>?.self) }
            guard let data, height >= 2 else { continue }
            if wide {
                interpolate(UnsafeMutableRawPointer(data).assumingMemoryBound(to: UInt16.self), width: width, height: height,
                            rowStride: Int(stride) / 2, missingParity: missingParity)
            } else {
                interpolate(data, width: width, height: height, rowStride: Int(stride), missingParity: missingParity)
            }
        }
        return true
    }

    /// Rows of `missingParity` rebuilt from the rows above and below (the edge rows from their one neighbour).
    static func interpolate<Sample: FixedWidthInteger & UnsignedInteger>(_ samples: UnsafeMutablePointer<Sample>, width: Int, height: Int,
                                                                      rowStride: Int, missingParity: Int) {
        for row in stride(from: missingParity, to: height, by: 2) {
            let target = samples + row * rowStride
            let hasAbove = row > 0, hasBelow = row + 1 < height
            guard hasAbove || hasBelow else { continue }
            let above = samples + (hasAbove ? row - 1 : row + 1) * rowStride
            let below = samples + (hasBelow ? row + 1 : row - 1) * rowStride
            for x in 0..<width {
                var best = abs(Int(above[x]) - Int(below[x]))
                var value = (Int(above[x]) + Int(below[x]) + 1) / 2
                if x > 0 && x + 1 < width {
                    // The two diagonals through the missing sample; an array literal here cost an allocation a pixel.
                    for direction in stride(from: -1, through: 1, by: 2) {
                        let a = Int(above[x + direction]), b = Int(below[x - direction])
                        if abs(a - b) < best {
                            best = abs(a - b)
                            value = (a + b + 1) / 2
                        }
                    }
                }
                target[x] = Sample(value)
            }
        }
    }
}
