import Glibc
import Synchronization

/// An output written to a temporary file beside its destination and moved into place only when
/// complete, so that no reader, crash or `kill -9` ever sees a partial or empty file under its name.
///
/// The temporary is named `.mediatool-tmp-<pid>-<random>-<host>` (a short name, so that an output
/// name of up to 255 bytes still has room beside it), so that a later run can tell the leftovers of
/// a dead process (`kill -9`, a power cut) from the work of a live one, on this machine or on
/// another sharing the folder. It is removed when the value is released without `commit()`, and by
/// `Interrupts` when a signal ends the process.
///
/// Only a regular file is ever replaced. A character device or FIFO named by the user is written
/// through instead (there is nothing to replace), and a symbolic link named by the user is followed.
public final class AtomicOutputFile {
    public static let temporaryMarker = ".mediatool-tmp-"
    /// The output name that means standard output, when the user gives it (`-o -`).
    public static let standardOutputName = "-"

    /// The path asked for.
    public let path: String
    public let descriptor: Int32
    /// Where the file lands: `path`, or the file its link leads to.
    private let destination: String
    /// nil when writing through a device or FIFO.
    private let temporaryPath: String?
    private let overwrite: Bool
    private var isOpen = true
    private var isCommitted = false

    /// Creates the temporary file, or opens the device or FIFO. Fails up front when `path` exists
    /// and may not be replaced.
    public init(path: String, policy: OutputPolicy) throws {
        self.path = path
        overwrite = policy.overwrite
        var destination = path
        if path == Self.standardOutputName && policy.isNamedByUser {
            // `-o -`: the picture goes to standard output; nothing named "-" is ever made.
            descriptor = try FileSystem.valueOrErrno("cannot write to standard output") { fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 0) }
            self.destination = path
            temporaryPath = nil
            return
        }
        if var status = FileSystem.linkStatus(path) {
            if status.st_mode & S_IFMT == S_IFLNK {
                guard policy.isNamedByUser else { throw OutputError.notRegular(path: path, kind: "a symbolic link") }
                // stat, then open, follow /proc's links too (/dev/stdout to a pipe); a regular file
                // is replaced where it really is, so its folder must be found.
                guard let target = FileSystem.status(path) else { throw OutputError.danglingLink(path: path) }
                if target.st_mode & S_IFMT == S_IFREG {
                    guard let resolved = FileSystem.realPath(path) else { throw OutputError.danglingLink(path: path) }
                    destination = resolved
                }
                status = target
            }
            switch status.st_mode & S_IFMT {
            case S_IFREG where policy.isNamedByUser && Self.isStandardOutput(status):
                // `-o /dev/stdout > file` (or >>): the shell opened the file for this output already.
                descriptor = try FileSystem.valueOrErrno("cannot write \(path)") { fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 0) }
                self.destination = destination
                temporaryPath = nil
                return
            case S_IFREG:
                if RunInputs.contains(FileIdentity(status)) { throw OutputError.wouldOverwriteInput(path: path) }
                guard policy.overwrite else { throw OutputError.exists(path: path) }
            // (`where` binds to the last pattern only: each kind states it.)
            case S_IFCHR where policy.isNamedByUser, S_IFIFO where policy.isNamedByUser:
                descriptor = try Self.openThrough(path, isFIFO: status.st_mode & S_IFMT == S_IFIFO)
                self.destination = destination
                temporaryPath = nil
                return
            default:
                throw OutputError.notRegular(path: path, kind: FileSystem.kind(of: status))
            }
        }
        self.destination = destination
        let directory = Self.split(destination).directory
        while true {
            let candidate = "\(directory)\(Self.temporaryMarker)\(getpid())-\(String(UInt64.random(in: 0...UInt64.max), radix: 36))-\(Self.hostTag)"
            // 0666 so that the umask decides, as for any file a tool creates.
            let fd = FileSystem.open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode: 0o666)
            if fd >= 0 {
                descriptor = fd
                temporaryPath = candidate
                Self.unfinished.withLock { _ = $0.insert(candidate) }
                return
            }
            if errno == ENOENT || errno == ENOTDIR {
                // The folder is what is missing, not a temporary: say so in the user's terms.
                throw OutputError.missingFolder(path: destination, folder: directory.isEmpty ? "." : directory)
            }
            if errno != EEXIST { throw SystemError("cannot create a temporary file in \(directory.isEmpty ? "." : directory)") }
        }
    }

    deinit {
        if isOpen { close(descriptor) }
        if !isCommitted, let temporaryPath { Self.discard(temporaryPath) }
    }

    /// Closes the complete file ahead of `commit`, so that many outputs waiting to be committed
    /// together hold no descriptors (close reports the last write errors of some file systems).
    public func finishWriting() throws {
        guard isOpen else { return }
        isOpen = false
        guard close(descriptor) == 0 else { throw SystemError("cannot write \(path)") }
    }

    /// Moves the finished file into place. Without `overwrite`, an output that appeared meanwhile is kept.
    public func commit() throws {
        try finishWriting()
        guard let temporaryPath else {
            isCommitted = true
            return
        }
        if overwrite {
            // Something other than a regular file may have taken the name since the start.
            if let status = FileSystem.linkStatus(destination), status.st_mode & S_IFMT != S_IFREG {
                throw OutputError.notRegular(path: path, kind: FileSystem.kind(of: status))
            }
            guard FileSystem.rename(temporaryPath, to: destination) == 0 else { throw SystemError("cannot rename to \(path)") }
        } else {
            // link(2) fails on an existing destination, where rename(2) would replace it.
            guard FileSystem.link(temporaryPath, to: destination) == 0 else {
                if errno == EEXIST { throw OutputError.exists(path: path) }
                throw SystemError("cannot create \(path)")
            }
            FileSystem.unlink(temporaryPath)
        }
        Self.unfinished.withLock { _ = $0.remove(temporaryPath) }
        isCommitted = true
    }

    /// A device or FIFO, opened for writing without creating or truncating anything. A FIFO that
    /// nobody reads is an error at once, not a wait.
    private static func openThrough(_ path: String, isFIFO: Bool) throws -> Int32 {
        let fd = FileSystem.open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else {
            if isFIFO && errno == ENXIO { throw SystemError("cannot write \(path): no process reads the FIFO", code: ENXIO) }
            throw SystemError("cannot open \(path)")
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return fd
    }

    private static func isStandardOutput(_ status: stat) -> Bool {
        var standardOutput = stat()
        return fstat(STDOUT_FILENO, &standardOutput) == 0 && FileIdentity(standardOutput) == FileIdentity(status)
    }

    /// The temporaries of outputs not yet committed, so that a signal can remove them.
    private static let unfinished = Mutex<Set<String>>([])

    private static func discard(_ temporaryPath: String) {
        FileSystem.unlink(temporaryPath)
        unfinished.withLock { _ = $0.remove(temporaryPath) }
    }

    /// Removes every temporary not yet committed: the process is about to end.
    public static func removeUnfinishedTemporaries() {
        unfinished.withLock { paths in
            for path in paths { FileSystem.unlink(path) }
            paths.removeAll()
        }
    }

    /// This machine's name, as temporaries carry it: 8 hex digits of its FNV-1a hash, so that the
    /// temporary's name stays short whatever the host name.
    public static let hostTag: String = {
        var buffer = [CChar](repeating: 0, count: 256)
        let name = gethostname(&buffer, buffer.count - 1) == 0 ? buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) } : Array("localhost".utf8)
        var hash: UInt32 = 0x811C_9DC5
        for byte in name {
            hash ^= UInt32(byte)
            hash &*= 0x0100_0193
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }()

    /// ("dir/", "name") for "dir/name"; ("", "name") for "name".
    static func split(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return ("", path) }
        return (String(path[...slash]), String(path[path.index(after: slash)...]))
    }
}
