import CFFmpeg

/// Bytes in memory that FFmpeg reads and seeks as a file: owns the AVIOContext and its buffer.
final class MemoryInput {
    private let bytes: [UInt8]
    private var position = 0
    private(set) var io: UnsafeMutablePointer<AVIOContext>!

    init(_ bytes: [UInt8]) throws(FFmpegError) {
        self.bytes = bytes
        let bufferSize: Int32 = 1 << 16
        guard let buffer = av_malloc(Int(bufferSize)) else { throw FFmpegError("cannot allocate", code: cffmpeg_averror(ENOMEM)) }
        io = avio_alloc_context(buffer.assumingMemoryBound(to: UInt8.self), bufferSize, 0,
                                Unmanaged.passUnretained(self).toOpaque(), { opaque, destination, size in
            let input = Unmanaged<MemoryInput>.fromOpaque(opaque!).takeUnretainedValue()
            return input.read(into: destination!, size: Int(size))
        }, nil, { opaque, offset, whence in
            let input = Unmanaged<MemoryInput>.fromOpaque(opaque!).takeUnretainedValue()
            return input.seek(to: offset, whence: whence)
        })
        if io == nil {
            av_free(buffer)
            throw FFmpegError("cannot allocate", code: cffmpeg_averror(ENOMEM))
        }
    }

    deinit {
        // FFmpeg may have replaced the buffer it was given: free the one the context holds now.
        av_free(io.pointee.buffer)
        var context: UnsafeMutablePointer<AVIOContext>? = io
        avio_context_free(&context)
    }

    private func read(into destination: UnsafeMutablePointer<UInt8>, size: Int) -> Int32 {
        let count = min(size, bytes.count - position)
        guard count > 0 else { return FFmpegError.endOfFile }
        bytes.withUnsafeBufferPointer { source in
            destination.update(from: source.baseAddress! + position, count: count)
        }
        position += count
        return Int32(count)
    }

    private func seek(to offset: Int64, whence: Int32) -> Int64 {
        if whence & cffmpeg_avseek_size() != 0 { return Int64(bytes.count) }
        let base: Int64
        switch whence & 3 {
        case SEEK_SET: base = 0
        case SEEK_CUR: base = Int64(position)
        case SEEK_END: base = Int64(bytes.count)
        default: return -1
        }
        let (target, overflow) = base.addingReportingOverflow(offset)
        guard !overflow, target >= 0, target <= Int64(bytes.count) else { return -1 }
        position = Int(target)
        return target
    }
}
