import Glibc

/// An output written to a temporary file beside its destination and moved into place only when
/// complete, so that no reader, crash or `kill -9` ever sees a partial or empty file under its name.
///
/// The temporary is named `.<name>.mediatool-tmp-<pid>-<random>-<host>`, so that a later run can
/// tell the leftovers of a dead process (`kill -9`, a power cut) from the work of a live one, on this
/// machine or on another sharing the folder. It is removed when the value is released without `commit()`.
public final class AtomicOutputFile {
    public static let temporaryMarker = ".mediatool-tmp-"

    public let path: String
    public let descriptor: Int32
    private let temporaryPath: String
    private let overwrite: Bool
    private var isOpen = true
    private var isCommitted = false

    /// Creates the temporary file. Fails up front when `path` exists and `overwrite` is false.
    public init(path: String, overwrite: Bool) throws {
        self.path = path
        self.overwrite = overwrite
        if !overwrite && FileIdentity(path: path) != nil {
            throw OutputError.exists(path: path)
        }
        let (directory, name) = Self.split(path)
        while true {
            let suffix = "\(getpid())-\(String(UInt64.random(in: 0...UInt64.max), radix: 36))-\(Self.hostName)"
            let candidate = "\(directory).\(name)\(Self.temporaryMarker)\(suffix)"
            // 0666 so that the umask decides, as for any file a tool creates.
            let fd = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            if fd >= 0 {
                descriptor = fd
                temporaryPath = candidate
                return
            }
            if errno != EEXIST { throw SystemError("cannot create a temporary file in \(directory.isEmpty ? "." : directory)") }
        }
    }

    deinit {
        if isOpen { close(descriptor) }
        if !isCommitted { unlink(temporaryPath) }
    }

    /// Moves the finished file into place. Without `overwrite`, an output that appeared meanwhile is kept.
    public func commit() throws {
        isOpen = false
        guard close(descriptor) == 0 else { throw SystemError("cannot write \(path)") }
        if overwrite {
            guard rename(temporaryPath, path) == 0 else { throw SystemError("cannot rename to \(path)") }
        } else {
            // link(2) fails on an existing destination, where rename(2) would replace it.
            guard link(temporaryPath, path) == 0 else {
                if errno == EEXIST { throw OutputError.exists(path: path) }
                throw SystemError("cannot create \(path)")
            }
            unlink(temporaryPath)
        }
        isCommitted = true
    }

    /// This machine's name, as temporaries carry it.
    public static let hostName: String = {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()

    /// Writes `bytes` to `path` atomically.
    public static func write(_ bytes: [UInt8], to path: String, overwrite: Bool) throws {
        let file = try AtomicOutputFile(path: path, overwrite: overwrite)
        let output = BufferedOutput(descriptor: file.descriptor, displayName: path)
        try output.write(bytes)
        try output.flush()
        try file.commit()
    }

    /// ("dir/", "name") for "dir/name"; ("", "name") for "name".
    static func split(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return ("", path) }
        return (String(path[...slash]), String(path[path.index(after: slash)...]))
    }
}
