import CFFmpeg

/// An AVIOContext over bytes in memory: appended to, or (`seeks`) written where the muxer seeks,
/// for a muxer that fills in offsets once it knows them (AVIF's item locations). A muxer that
/// may not seek writes as it would to a pipe (the preview's fragmented MP4).
final class MemoryOutput {
    private(set) var io: UnsafeMutablePointer<AVIOContext>!
    private(set) var bytes: [UInt8] = []
    private var position = 0

    init(seeks: Bool = false) {
        let bufferSize: Int32 = 1 << 16
        let buffer = av_malloc(Int(bufferSize))!
        let opaque = Unmanaged.passUnretained(self).toOpaque()
        io = avio_alloc_context(buffer.assumingMemoryBound(to: UInt8.self), bufferSize, 1, opaque, nil, { opaque, source, count in
            let output = Unmanaged<MemoryOutput>.fromOpaque(opaque!).takeUnretainedValue()
            return output.write(UnsafeRawBufferPointer(start: source, count: Int(count)))
        }, seeks ? { opaque, offset, whence in
            Unmanaged<MemoryOutput>.fromOpaque(opaque!).takeUnretainedValue().seek(offset, whence)
        } : nil)
    }

    deinit {
        av_free(io.pointee.buffer)
        var context: UnsafeMutablePointer<AVIOContext>? = io
        avio_context_free(&context)
    }

    private func write(_ source: UnsafeRawBufferPointer) -> Int32 {
        let end = position + source.count
        if end > bytes.count { bytes.append(contentsOf: repeatElement(0, count: end - bytes.count)) }
        bytes.withUnsafeMutableBytes { UnsafeMutableRawBufferPointer(rebasing: $0[position..<end]).copyMemory(from: source) }
        position = end
        return Int32(source.count)
    }

    private func seek(_ offset: Int64, _ whence: Int32) -> Int64 {
        Self.seek(offset, whence, position: &position, size: bytes.count)
    }

    /// An AVIOContext's seek over an output of `size` bytes written to `position`: the size
    /// (AVSEEK_SIZE), or the new position, moved; AVERROR(EINVAL) for a whence it does not know
    /// or a position before the start. The one arithmetic of every output FFmpeg seeks in.
    static func seek(_ offset: Int64, _ whence: Int32, position: inout Int, size: Int) -> Int64 {
        let moved: Int
        switch whence & ~Int32(AVSEEK_FORCE) {
        case cffmpeg_avseek_size(): return Int64(size)
        case SEEK_SET: moved = Int(offset)
        case SEEK_CUR: moved = position + Int(offset)
        case SEEK_END: moved = size + Int(offset)
        default: return Int64(cffmpeg_averror(EINVAL))
        }
        guard moved >= 0 else { return Int64(cffmpeg_averror(EINVAL)) }
        position = moved
        return Int64(moved)
    }
}
