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
        switch whence & ~Int32(AVSEEK_FORCE) {
        case cffmpeg_avseek_size(): return Int64(bytes.count)
        case SEEK_SET: position = Int(offset)
        case SEEK_CUR: position += Int(offset)
        case SEEK_END: position = bytes.count + Int(offset)
        default: return Int64(cffmpeg_averror(EINVAL))
        }
        guard position >= 0 else { return Int64(cffmpeg_averror(EINVAL)) }
        return Int64(position)
    }
}
