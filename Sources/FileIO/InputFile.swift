import Glibc
import Failures
import Synchronization

/// An input opened once for reading: a path, or standard input for `-`. Owns its descriptor, which
/// every reader of the input shares: no input is opened twice, so none can change between opens.
/// (Unchecked Sendable: `read(at:into:)` is pread and may run on any thread; the reads front to
/// back belong to one reader at a time.)
public final class InputFile: ByteSource, @unchecked Sendable {
    /// The name errors give for standard input.
    public static let standardInputName = "<stdin>"

    /// The path as given, or `<stdin>`.
    public let displayName: String
    public let descriptor: Int32
    private let ownsDescriptor: Bool
    /// A regular file: its size is known and it can be read at any offset.
    public let isRegular: Bool
    /// What the file held when opened; nil for a stream.
    public let size: Int?

    /// When the file's content or status last changed (its `st_ctime`, which no caller can set
    /// back), and its size: two reads that must agree were of the same bytes where this is the
    /// same after both. Nil for what has no status.
    public var changeStamp: [Int]? {
        guard let found = FileSystem.status(ofDescriptor: descriptor) else { return nil }
        return [found.st_ctim.tv_sec, found.st_ctim.tv_nsec, found.st_mtim.tv_sec, found.st_mtim.tv_nsec, Int(found.st_size)]
    }
    /// Device and inode.
    public let identity: FileIdentity
    private let kind: String
    private var position = 0
    /// The first `headLength` bytes, once read (`head`).
    private let readHead = Mutex<[UInt8]?>(nil)

    /// As many first bytes as tell what an input is: a picture's signature (12), a Matroska
    /// doctype (64), FFmpeg's first probe (4 KiB).
    public static let headLength = 4096

    /// The input's first bytes (fewer where it has fewer), read once: every reader that tells what
    /// the input is (which worker decodes it, which reader opens it, what probe calls it) looks at
    /// the same bytes, where eight places each read them again.
    public func head() throws -> [UInt8] {
        try readHead.withLock { (kept: inout [UInt8]?) throws -> [UInt8] in
            if let kept { return kept }
            var bytes = [UInt8](repeating: 0, count: Self.headLength)
            let got = try bytes.withUnsafeMutableBytes { try read(at: 0, into: $0) }
            bytes.removeLast(bytes.count - got)
            kept = bytes
            return bytes
        }
    }

    /// Opens `path`, or standard input for `-`. A FIFO is opened without waiting for a writer (one
    /// with no writer reads as empty); a folder is refused here, not at the first read.
    public init(path: String) throws(SystemError) {
        if path == "-" {
            displayName = Self.standardInputName
            descriptor = STDIN_FILENO
            ownsDescriptor = false
        } else {
            displayName = path
            let fd = FileSystem.open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
            guard fd >= 0 else { throw SystemError("cannot open") }
            // Reads wait for data again, as for any file.
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
            descriptor = fd
            ownsDescriptor = true
        }
        (identity, kind, isRegular, size, position, isDevice) = try Self.describe(descriptor, owned: ownsDescriptor, isStandardInput: path == "-")
        if path != "-", let standard = Self.standardStream(sharing: identity) {
            close(descriptor)
            throw SystemError("cannot read", code: EINVAL, reason: "it is this run's own \(standard): refused")
        }
        if path != "-", !isRegular, !isDevice, let pipe = Self.anonymousPipeNotGiven(descriptor, identity: identity) {
            close(descriptor)
            throw SystemError("cannot read", code: EINVAL, reason: "it is \(pipe) this run was not given (a process's own, by its /proc path): refused")
        }
    }

    /// An anonymous pipe or socket ("a pipe", "a socket") opened by a path into `/proc` or
    /// `/dev/fd` that this process was not given when it started: one of its own (a worker's error
    /// pipe, `/proc/self/fd/5`, whose crash text it would take) or another process's
    /// (`/proc/PID/fd/0`, whose input it would swallow). Pipes given at start (`mediatool probe
    /// <(cat clip)`) and FIFOs made in a folder are read. Looked for only in the command line (see
    /// `FileSystem.noteInheritedDescriptors`); the library's caller chooses its paths.
    static func anonymousPipeNotGiven(_ descriptor: Int32, identity: FileIdentity) -> String? {
        guard let inherited = FileSystem.inheritedIdentities, !inherited.contains(identity) else { return nil }
        var target = [CChar](repeating: 0, count: 64)
        let length = readlink("/proc/self/fd/\(descriptor)", &target, target.count - 1)
        guard length > 0 else { return nil }
        let link = String(decoding: target.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if link.hasPrefix("pipe:[") { return "a pipe" }
        if link.hasPrefix("socket:[") { return "a socket" }
        return nil
    }

    /// The standard stream this process writes that is the same file as an input
    /// (`/proc/self/fd/1`, or a link to it in an upload folder): read, a batch's or `--serve`'s own
    /// answers would be swallowed as an input. (Standard input as an input is `-`, or a path to it
    /// outside `--serve`, which refuses it itself: it carries the paths served.)
    static func standardStream(sharing identity: FileIdentity) -> String? {
        let streams: [(Int32, String)] = [(STDOUT_FILENO, "standard output"), (STDERR_FILENO, "standard error")]
        for (descriptor, name) in streams {
            var status = stat()
            if fstat(descriptor, &status) == 0, FileIdentity(status) == identity { return name }
        }
        return nil
    }

    /// Takes over `descriptor`, opened elsewhere (a worker's input, sent by the process that
    /// opened it), and closes it when done; `displayName` is what errors call it.
    public init(adopting descriptor: Int32, displayName: String) throws(SystemError) {
        self.displayName = displayName
        self.descriptor = descriptor
        ownsDescriptor = true
        (identity, kind, isRegular, size, position, isDevice) = try Self.describe(descriptor, owned: true, isStandardInput: false)
    }

    /// As `init(adopting:displayName:)`, its first bytes those another process read (`head`):
    /// a worker tells the input's kind from the bytes its parent chose the worker by, where a
    /// second read of a file rewritten meanwhile gave a worker without FFmpeg a video to decode.
    public convenience init(adopting descriptor: Int32, displayName: String, head: [UInt8]) throws(SystemError) {
        try self.init(adopting: descriptor, displayName: displayName)
        readHead.withLock { $0 = Array(head.prefix(Self.headLength)) }
    }

    /// What an open descriptor is: its identity, kind, whether regular, its size and the position
    /// reads start at; a folder is refused (and an owned descriptor closed).
    private static func describe(_ descriptor: Int32, owned: Bool, isStandardInput: Bool) throws(SystemError)
        -> (FileIdentity, String, Bool, Int?, Int, Bool) {
        var status = stat()
        if isStandardInput && FileSystem.standardInputIsClosed {
            throw SystemError("standard input is closed", code: EBADF)
        }
        guard fstat(descriptor, &status) == 0 else {
            let error = isStandardInput && errno == EBADF ? SystemError("standard input is closed", code: EBADF) : SystemError("cannot read file status")
            if owned { close(descriptor) }
            throw error
        }
        let type = status.st_mode & S_IFMT
        if type == S_IFDIR {
            if owned { close(descriptor) }
            throw SystemError("cannot read", code: EISDIR)
        }
        let isRegular = type == S_IFREG
        let position = isRegular ? max(0, Int(lseek(descriptor, 0, SEEK_CUR))) : 0
        return (FileIdentity(status), FileSystem.kind(of: status), isRegular, isRegular ? Int(status.st_size) : nil, position,
                type == S_IFCHR || type == S_IFBLK)
    }

    private let isDevice: Bool

    deinit {
        if ownsDescriptor { close(descriptor) }
    }

    public var remainingLength: Int? { size.map { max(0, $0 - position) } }

    /// Reads on from where the last read ended. A regular file is read up to the size it had when
    /// opened; one that ends before it shrank while being read, which is an error, not an end.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        let wanted = remainingLength.map { min($0, buffer.count) } ?? buffer.count
        if wanted == 0 { return 0 }
        let count = try FileSystem.valueOrErrno("read failed") { Glibc.read(descriptor, base, wanted) }
        if count == 0, let size {
            throw InputError.shrank(expected: size, found: position)
        }
        position += count
        return count
    }

    /// Reads up to `buffer.count` bytes at `offset` of a regular file, whatever other reads do
    /// meanwhile (pread: threads may share the file); fewer only at the end.
    public func read(at offset: Int, into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        var done = 0
        while done < buffer.count {
            let count = try FileSystem.valueOrErrno("read failed") {
                pread(descriptor, base + done, buffer.count - done, off_t(offset + done))
            }
            if count == 0 { break }
            done += count
        }
        return done
    }

    /// Every byte of a regular file, as big as it was when opened; one that shrank since is an error.
    public func contents() throws -> [UInt8] {
        guard let size else { throw InputError.notRegular(kind: kind) }
        var bytes = [UInt8](repeating: 0, count: size)
        let count = try bytes.withUnsafeMutableBytes { try read(at: 0, into: $0) }
        if count < size { throw InputError.shrank(expected: size, found: count) }
        return bytes
    }

    public func skip(_ count: Int) throws -> Int {
        if isRegular, let remaining = remainingLength {
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

    /// This input as a regular file that decoders can read at any offset: itself, or for a stream
    /// (a FIFO, a pipe, `<(command)`) its bytes read once into an unnamed temporary file, within
    /// `limits` (its size, and how long it may send nothing). A device is refused: its bytes need
    /// not end. `recognise` is shown a stream's first bytes (up to `Self.recognitionLength`, fewer
    /// when the stream is shorter) before the rest is copied, and throws when they are not what the
    /// job reads: 2 GB that are not a picture are not copied first.
    /// `stop` is asked between reads and every tenth of a second of a wait: it throws to end the
    /// copy (a caller's cancellation, its deadline).
    public func randomAccess(limits: StreamLimits = StreamLimits(),
                             recognise: ((UnsafeRawBufferPointer) throws -> Void)? = nil,
                             stop: (() throws -> Void)? = nil) throws -> InputFile {
        // One wording for every job (probe, thumbnail, crop each said it otherwise).
        if isRegular {
            if size == 0 { throw InputError.empty }
            return self
        }
        if isDevice { throw InputError.notRegular(kind: kind) }
        let (fd, size) = try spool(limits: limits, recognise: recognise, stop: stop)
        return try InputFile(spooled: fd, size: size, from: self)
    }

    /// How much of a stream `randomAccess` shows to be recognised.
    public static let recognitionLength = 1 << 20

    /// Copies this stream to a temporary file that has no name (unlinked at once): its descriptor,
    /// at its start, and the bytes it holds. Its first bytes are recognised (when asked) before the
    /// temporary file is made. On any failure the copy is closed, and so gone.
    private func spool(limits: StreamLimits, recognise: ((UnsafeRawBufferPointer) throws -> Void)?,
                       stop: (() throws -> Void)?) throws -> (Int32, Int) {
        // Reads that never wait, and poll for the waits: poll alone would wait out the whole limit
        // on a FIFO that no writer ever opened, where a read says at once that it is empty. Only
        // on a descriptor of its own: standard input's flags are its writer's and shell's too, and
        // a signal that ends the run would leave them changed.
        let flags = ownsDescriptor ? fcntl(descriptor, F_GETFL) : -1
        if flags >= 0 && flags & O_NONBLOCK == 0 { _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) }
        defer { if flags >= 0 && flags & O_NONBLOCK == 0 { _ = fcntl(descriptor, F_SETFL, flags) } }
        var head: [UInt8] = []
        if let recognise {
            head = [UInt8](repeating: 0, count: min(Self.recognitionLength, limits.maxSize))
            let filled = try head.withUnsafeMutableBytes { start in
                var filled = 0
                while filled < start.count {
                    let count = try readStream(into: UnsafeMutableRawBufferPointer(rebasing: start[filled...]), limits: limits, stop: stop)
                    if count == 0 { break }
                    filled += count
                }
                return filled
            }
            head.removeLast(head.count - filled)
            if head.isEmpty { throw InputError.empty }
            try head.withUnsafeBytes { try recognise($0) }
        }
        let fd = try TemporaryFiles.unnamed(copyOf: "the stream")
        do {
            let output = BufferedOutput(descriptor: fd, displayName: "a temporary copy of \(displayName)")
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
            defer { buffer.deallocate() }
            try output.write(head)
            var total = head.count
            head = []
            while true {
                // One byte past the limit tells a stream that ends at it from one that goes on
                // (a limit of Int.max has no byte past it).
                let left = limits.maxSize - total
                let room = left >= buffer.count ? buffer.count : left + 1
                let count = try readStream(into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<room]), limits: limits, stop: stop)
                if count == 0 { break }
                total += count
                if total > limits.maxSize { throw InputError.streamTooLarge(limit: limits.maxSize) }
                try output.write(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
            }
            try output.flush()
            if total == 0 { throw InputError.empty }
            lseek(fd, 0, SEEK_SET)
            return (fd, total)
        } catch {
            close(fd)
            throw error
        }
    }

    /// A read of this stream that waits at most `limits.stallSeconds` for its next bytes; 0 at its
    /// end. A descriptor that may block (standard input's) is read only once poll says it can be.
    private func readStream(into buffer: UnsafeMutableRawBufferPointer, limits: StreamLimits, stop: (() throws -> Void)?) throws -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        let deadline = Clock.seconds() + limits.stallSeconds
        let neverBlocks = fcntl(descriptor, F_GETFL) & O_NONBLOCK != 0
        var mayRead = neverBlocks
        while true {
            try stop?()
            if mayRead {
                let count = Glibc.read(descriptor, base, buffer.count)
                if count >= 0 {
                    position += count
                    return count
                }
                guard errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR else { throw SystemError("read failed") }
            }
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let left = deadline - Clock.seconds()
            if left <= 0 { throw InputError.stalled(seconds: limits.stallSeconds) }
            let wait = stop == nil ? left : min(left, 0.1)
            let polled = poll(&entry, 1, Int32(min(wait * 1000, Double(Int32.max)).rounded(.up)))
            if polled < 0 && errno != EINTR { throw SystemError("read failed") }
            mayRead = neverBlocks || polled > 0
        }
    }

    /// The copy `spool` made of `stream`, read as a regular file by the stream's name.
    private init(spooled fd: Int32, size: Int, from stream: InputFile) throws(SystemError) {
        descriptor = fd
        ownsDescriptor = true
        displayName = stream.displayName
        kind = stream.kind
        isDevice = false
        isRegular = true
        self.size = size
        var status = stat()
        fstat(fd, &status)
        identity = FileIdentity(status)
    }

    /// Holds a copy of `bytes` (a library caller's upload in memory) in a temporary file that has no
    /// name, so that every reader reads it as a file: at any offset, by descriptor (FFmpeg, libtiff).
    public convenience init(copying bytes: UnsafeRawBufferPointer, displayName: String) throws {
        let fd = try TemporaryFiles.unnamed(copyOf: displayName)
        do {
            try FileSystem.writeAll(bytes, to: fd, target: "a temporary copy of \(displayName)")
        } catch {
            close(fd)
            throw error
        }
        lseek(fd, 0, SEEK_SET)
        try self.init(adopting: fd, displayName: displayName)
    }
}

/// Why an input could not be read as it is.
public enum InputError: Error, Equatable, CustomStringConvertible {
    /// A regular file ended before the size it had when opened.
    case shrank(expected: Int, found: Int)
    /// A regular file written to between two reads that must agree (the index check's and FFmpeg's).
    case changed
    /// A device (or other file) that is not read as a picture or video.
    case notRegular(kind: String)
    /// A file (or stream) of no bytes.
    case empty
    /// A stream that went on past the most its copy may hold (`StreamLimits.maxSize`).
    case streamTooLarge(limit: Int)
    /// A stream that sent nothing for `StreamLimits.stallSeconds`.
    case stalled(seconds: Double)
    /// A stream still going when its caller's time ran out (a library call's timeout).
    case tooSlow(seconds: Double)

    public var description: String {
        switch self {
        case .shrank(let expected, let found):
            return "the file shrank while it was read: \(expected) bytes when opened, \(found) read"
        case .changed:
            return "the file was written to while it was read: refused, for what was checked is not what is decoded"
        case .notRegular(let kind):
            return "not a regular file (\(kind)): pictures and videos are read from files, FIFOs and pipes"
        case .empty:
            return "an empty file"
        case .streamTooLarge(let limit):
            return "the stream went on past \(StreamLimits.sizeText(limit)), the most a stream may send (\(Setting.maxInputSize)): refused"
        case .stalled(let seconds):
            return "the stream sent nothing for \(StreamLimits.secondsText(seconds)) s: stalled (\(Setting.timeout))"
        case .tooSlow(let seconds):
            return "the stream had not ended after \(StreamLimits.secondsText(seconds)) s (\(Setting.timeout))"
        }
    }
}

extension InputError: ClassifiedError {
    public var failureKind: FailureKind {
        switch self {
        case .tooSlow, .streamTooLarge: return .overLimit
        // As an empty file is to probe: no format at all.
        case .empty: return .unsupportedFormat
        default: return .unreadable
        }
    }
}
