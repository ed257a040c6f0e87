import Glibc

/// An input opened for reading: a path, or standard input for `-`. Owns its descriptor.
public final class InputFile: ByteSource {
    /// The name errors give for standard input.
    public static let standardInputName = "<stdin>"

    /// The path as given, or `<stdin>`.
    public let displayName: String
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    private let isSeekable: Bool
    private var position = 0
    private let length: Int?

    /// Opens `path`, or standard input for `-`. Directories are refused here, not at the first read.
    public init(path: String) throws(SystemError) {
        if path == "-" {
            displayName = Self.standardInputName
            descriptor = STDIN_FILENO
            ownsDescriptor = false
        } else {
            displayName = path
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw SystemError("cannot open") }
            descriptor = fd
            ownsDescriptor = true
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let error = SystemError("cannot read file status")
            if ownsDescriptor { close(descriptor) }
            throw error
        }
        let type = status.st_mode & S_IFMT
        if type == S_IFDIR {
            if ownsDescriptor { close(descriptor) }
            throw SystemError("cannot read", code: EISDIR)
        }
        isSeekable = type == S_IFREG
        length = isSeekable ? Int(status.st_size) - Int(lseek(descriptor, 0, SEEK_CUR)) : nil
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
    }

    public var remainingLength: Int? { length.map { max(0, $0 - position) } }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        while true {
            let count = Glibc.read(descriptor, base, buffer.count)
            if count >= 0 {
                position += count
                return count
            }
            if errno != EINTR { throw SystemError("read failed") }
        }
    }

    public func skip(_ count: Int) throws -> Int {
        if isSeekable, let remaining = remainingLength {
            let skipped = min(count, remaining)
            guard lseek(descriptor, off_t(skipped), SEEK_CUR) >= 0 else { throw SystemError("seek failed") }
            position += skipped
            return skipped
        }
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 1)
        defer { scratch.deallocate() }
        var skipped = 0
        while skipped < count {
            let chunk = UnsafeMutableRawBufferPointer(rebasing: scratch[..<min(scratch.count, count - skipped)])
            let read = try read(into: chunk)
            if read == 0 { break }
            skipped += read
        }
        return skipped
    }
}
