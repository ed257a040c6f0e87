import CFFmpeg
import FileIO

/// Bytes FFmpeg reads and seeks through an AVIOContext of ours instead of opening a file itself:
/// an input the tool has open already (so that it is opened once), or bytes in memory. Owns the
/// AVIOContext and its buffer.
final class CustomInput {
    enum Source {
        case file(InputFile)
        case memory([UInt8])
    }

    private let source: Source
    private let length: Int
    private var position = 0
    private(set) var io: UnsafeMutablePointer<AVIOContext>!
    /// The file's `InputFile.changeStamp` when what FFmpeg reads was checked (its index's
    /// claims): a read after a write is an error, not bytes, so FFmpeg never parses bytes that
    /// were not checked. Checked after each read: any write a read saw changed the stamp before it.
    private let unchangedSince: [Int]?

    init(_ source: Source, unchangedSince stamp: [Int]? = nil) throws(FFmpegError) {
        self.source = source
        unchangedSince = stamp
        switch source {
        case .file(let file): length = file.size ?? 0
        case .memory(let bytes): length = bytes.count
        }
        let bufferSize: Int32 = 1 << 16
        guard let buffer = av_malloc(Int(bufferSize)) else { throw FFmpegError("cannot allocate", code: cffmpeg_averror(ENOMEM)) }
        io = avio_alloc_context(buffer.assumingMemoryBound(to: UInt8.self), bufferSize, 0,
                                Unmanaged.passUnretained(self).toOpaque(), { opaque, destination, size in
            let input = Unmanaged<CustomInput>.fromOpaque(opaque!).takeUnretainedValue()
            return input.read(into: destination!, size: Int(size))
        }, nil, { opaque, offset, whence in
            let input = Unmanaged<CustomInput>.fromOpaque(opaque!).takeUnretainedValue()
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

    /// Set once a read found the file shorter than when it was opened, or written to since it
    /// was checked: an error, never an end.
    private(set) var shrinkage: InputError?

    private func read(into destination: UnsafeMutablePointer<UInt8>, size: Int) -> Int32 {
        let wanted = min(size, length - position)
        guard wanted > 0 else { return FFmpegError.endOfFile }
        let count: Int
        switch source {
        case .file(let file):
            guard let got = try? file.read(at: position, into: UnsafeMutableRawBufferPointer(start: destination, count: wanted)) else {
                return cffmpeg_averror(EIO)
            }
            // Shorter than when it was opened: the file shrank, which is not an end.
            guard got == wanted else {
                // A read after a seek past the new end finds nothing: the size now says how much is left.
                let now = FileSystem.status(ofDescriptor: file.descriptor).map { Int($0.st_size) } ?? position + got
                shrinkage = .shrank(expected: length, found: min(now, position + got))
                return cffmpeg_averror(EIO)
            }
            if let unchangedSince, file.changeStamp != unchangedSince {
                shrinkage = .changed
                return cffmpeg_averror(EIO)
            }
            count = got
        case .memory(let bytes):
            bytes.withUnsafeBufferPointer { source in
                destination.update(from: source.baseAddress! + position, count: wanted)
            }
            count = wanted
        }
        position += count
        return Int32(count)
    }

    private func seek(to offset: Int64, whence: Int32) -> Int64 {
        if whence & cffmpeg_avseek_size() != 0 { return Int64(length) }
        let base: Int64
        switch whence & 3 {
        case SEEK_SET: base = 0
        case SEEK_CUR: base = Int64(position)
        case SEEK_END: base = Int64(length)
        default: return -1
        }
        let (target, overflow) = base.addingReportingOverflow(offset)
        // Past the end is allowed, as lseek allows it: reading there gives the end of the file.
        guard !overflow, target >= 0 else { return -1 }
        position = Int(target)
        return target
    }
}
