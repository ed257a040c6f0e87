import Glibc
import Synchronization

/// Every system call on a path goes through here: the path's own bytes are passed (see
/// `PathBytes`), and a call interrupted by a signal is made again.
public enum FileSystem {
    /// Repeats `call` while it fails with EINTR; the result, or the error with `operation`.
    @discardableResult
    public static func valueOrErrno<Value: BinaryInteger>(_ operation: @autoclosure () -> String,
                                                          _ call: () -> Value) throws(SystemError) -> Value {
        let value = retryingInterrupted(call)
        if value == -1 { throw SystemError(operation()) }
        return value
    }

    /// Makes a system call (one that answers -1 and errno on failure) again while a signal
    /// interrupts it (EINTR): the one loop that does, for every call that may be interrupted.
    /// Its result, with errno as the call left it.
    @discardableResult
    public static func retryingInterrupted<Value: BinaryInteger>(_ call: () -> Value) -> Value {
        while true {
            let value = call()
            if value != -1 || errno != EINTR { return value }
        }
    }

    /// Opens /dev/null on each of descriptors 0, 1 and 2 that the caller closed (`2>&-`, `<&-`):
    /// else the next file or socket opened would take its number, and be written to as standard
    /// error or read as standard input (a worker's socket was). Call first, before any open.
    public static func holdStandardDescriptors() {
        for descriptor in Int32(0)...2 where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            if descriptor == STDIN_FILENO { standardInputWasClosed.store(true, ordering: .relaxed) }
            // The lowest free number, which is this one: those below it are open.
            _ = Glibc.open("/dev/null", descriptor == STDIN_FILENO ? O_RDONLY : O_WRONLY)
        }
    }

    /// Notes what this process was given open when it started (`<(...)` in a shell, `3< file`):
    /// an input's path to one of them (`/dev/fd/63`) is the user's own, read as given. Call at
    /// start, before any descriptor of this process's own is made.
    public static func noteInheritedDescriptors() {
        var identities: Set<FileIdentity> = []
        for descriptor in Self.openDescriptors() {
            var status = stat()
            if fstat(descriptor, &status) == 0 { identities.insert(FileIdentity(status)) }
        }
        inherited.withLock { $0 = identities }
    }

    /// What `noteInheritedDescriptors` found; nil where it was not called (the library, whose
    /// caller chooses its inputs' paths).
    public static var inheritedIdentities: Set<FileIdentity>? { inherited.withLock { $0 } }
    private static let inherited = Mutex<Set<FileIdentity>?>(nil)

    /// The descriptors this process has open, from /proc/self/fd (that listing's own left out).
    private static func openDescriptors() -> [Int32] {
        guard let folder = opendir("/proc/self/fd") else { return [] }
        defer { closedir(folder) }
        let listing = dirfd(folder)
        var descriptors: [Int32] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if let descriptor = Int32(name), descriptor != listing { descriptors.append(descriptor) }
        }
        return descriptors
    }

    /// Standard input was closed when the process started (see `holdStandardDescriptors`).
    public static var standardInputIsClosed: Bool { standardInputWasClosed.load(ordering: .relaxed) }
    private static let standardInputWasClosed = Atomic<Bool>(false)

    /// Raises the soft limit on open files to the hard one, as Go's runtime does: many jobs at once
    /// each hold a few (a job's finished outputs hold none, see `OutputSet.finish`). Nothing here
    /// uses select(), the one interface that cannot take descriptors past 1024.
    public static func raiseOpenFileLimit() {
        var limits = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limits) == 0, limits.rlim_cur < limits.rlim_max else { return }
        limits.rlim_cur = limits.rlim_max
        _ = setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limits)
    }

    /// Writes all of `bytes` to `descriptor`, going on after short writes and interruptions; a
    /// write that makes no progress is EIO. The error names `target`. With `position`, the bytes go
    /// there (pwrite), and the descriptor's own offset stays where it was.
    public static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32, at position: Int? = nil,
                                target: @autoclosure () -> String) throws(SystemError) {
        var offset = 0
        while offset < bytes.count {
            let written: Int
            do throws(SystemError) {
                written = try valueOrErrno("cannot write to \(target())") {
                    let start = bytes.baseAddress! + offset, count = bytes.count - offset
                    return position.map { Glibc.pwrite(descriptor, start, count, off_t($0 + offset)) } ?? Glibc.write(descriptor, start, count)
                }
            } catch {
                // Whoever read standard output is gone (`| head`): the run stops as SIGPIPE would
                // stop it, its temporaries removed (see `Interrupts`).
                if error.code == EPIPE && isStandardOutput(descriptor) { Interrupts.shared.readerIsGone() }
                throw error
            }
            if written == 0 { throw SystemError("cannot write to \(target())", code: EIO) }
            offset += written
        }
    }

    /// Whether `descriptor` is standard output, or a copy of it (`-o -`).
    private static func isStandardOutput(_ descriptor: Int32) -> Bool {
        if descriptor == STDOUT_FILENO { return true }
        var given = stat(), standard = stat()
        return fstat(descriptor, &given) == 0 && fstat(STDOUT_FILENO, &standard) == 0 && FileIdentity(given) == FileIdentity(standard)
    }

    public static func writeAll(_ bytes: [UInt8], to descriptor: Int32, at position: Int? = nil,
                                target: @autoclosure () -> String) throws(SystemError) {
        let failure = bytes.withUnsafeBytes { raw -> SystemError? in
            do throws(SystemError) { try writeAll(raw, to: descriptor, at: position, target: target()) } catch { return error }
            return nil
        }
        if let failure { throw failure }
    }

    /// O_PATH (Linux's, which Glibc's module leaves out without _GNU_SOURCE): a descriptor that
    /// only names a file, enough for a folder that calls relative to it start from.
    public static let openPath: Int32 = 0o10000000

    public static func open(_ path: String, _ flags: Int32, mode: mode_t = 0) -> Int32 {
        PathBytes.withCString(path) { name in retryingInterrupted { Glibc.open(name, flags, mode) } }
    }

    /// Whether `descriptor` is a regular file open for reading and writing, not for appending:
    /// one a writer may seek back in and read back (a web video's muxer and `moov` move).
    /// Never standard output, whatever it is: a file the user opened (`1<>file`) is theirs from
    /// its current offset, not ours to rewrite from byte 0 (the eighth red team's header line was).
    public static func isRewritableFile(_ descriptor: Int32) -> Bool {
        guard !isStandardOutput(descriptor), let found = status(ofDescriptor: descriptor), found.st_mode & S_IFMT == S_IFREG else { return false }
        let flags = fcntl(descriptor, F_GETFL)
        return flags >= 0 && flags & O_ACCMODE == O_RDWR && flags & O_APPEND == 0
    }

    /// The status of an open descriptor; nil (errno set) when it has none.
    public static func status(ofDescriptor descriptor: Int32) -> stat? {
        var found = Glibc.stat()
        return fstat(descriptor, &found) == 0 ? found : nil
    }

    /// The status of the file `path` names, links followed; nil (errno set) when there is none.
    public static func status(_ path: String) -> stat? {
        var found = Glibc.stat()
        let result: Int32 = PathBytes.withCString(path) { name in fstatat(AT_FDCWD, name, &found, 0) }
        return result == 0 ? found : nil
    }

    /// The status of `path` itself: a link is not followed.
    public static func linkStatus(_ path: String) -> stat? {
        var found = Glibc.stat()
        let result: Int32 = PathBytes.withCString(path) { name in fstatat(AT_FDCWD, name, &found, AT_SYMLINK_NOFOLLOW) }
        return result == 0 ? found : nil
    }

    public static func makeFolder(_ path: String) -> Int32 {
        PathBytes.withCString(path) { mkdir($0, 0o777) }
    }

    @discardableResult
    public static func unlink(_ path: String) -> Int32 {
        PathBytes.withCString(path) { Glibc.unlink($0) }
    }

    /// The absolute path with every link and `..` resolved, or nil (errno set) when a part is missing.
    public static func realPath(_ path: String) -> String? {
        PathBytes.withCString(path) { name in
            guard let resolved = Glibc.realpath(name, nil) else { return nil }
            defer { free(resolved) }
            return PathBytes.string(UnsafeRawBufferPointer(start: resolved, count: strlen(resolved)))
        }
    }

    /// The names in `folder` but `.` and `..`, as the folder holds them; nil (errno set) when it cannot be read.
    public static func names(in folder: String) -> [String]? {
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        return names(inOpenFolder: fd)
    }

    /// The names in the folder open as `descriptor`, which this takes over (and closes).
    public static func names(inOpenFolder descriptor: Int32) -> [String]? {
        guard let directory = fdopendir(descriptor) else {
            close(descriptor)
            return nil
        }
        defer { closedir(directory) }
        var names: [String] = []
        // The name is read where it stands: loading d_name as a value would read all 256 bytes of
        // its array, past the end of a short last entry (readdir's records are only as long as the name).
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        while let entry = readdir(directory) {
            let field = UnsafeRawPointer(entry).advanced(by: nameOffset).assumingMemoryBound(to: CChar.self)
            let name = PathBytes.string(UnsafeRawBufferPointer(start: field, count: strlen(field)))
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// The kind of file a status describes, in words for messages.
    public static func kind(of status: stat) -> String {
        switch status.st_mode & S_IFMT {
        case S_IFREG: return "a regular file"
        case S_IFDIR: return "a folder"
        case S_IFLNK: return "a symbolic link"
        case S_IFIFO: return "a FIFO"
        case S_IFSOCK: return "a socket"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        default: return "a special file"
        }
    }
}
