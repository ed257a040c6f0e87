import Glibc
import Synchronization

/// A folder outputs are written in, held open: every file is created, linked, renamed and removed
/// relative to this descriptor (`openat`, `linkat`, `renameat`, `unlinkat`), so a folder swapped for
/// a link after it was opened cannot redirect a write. Folders below it are reached one component at
/// a time without following links.
public final class OutputFolder: Sendable {
    public let descriptor: Int32
    /// The path it was reached by, for messages.
    public let path: String

    /// The folder's device and inode, which no other folder has while this one is open.
    private let identity: FileIdentity?

    private init(descriptor: Int32, path: String, identity: FileIdentity?) {
        self.descriptor = descriptor
        self.path = path
        self.identity = identity
    }

    deinit {
        if let identity {
            Self.live.withLock { live in
                if live[identity]?.folder == nil || live[identity]?.folder === self { live[identity] = nil }
            }
        }
        close(descriptor)
    }

    /// The folders open now, by identity: a storyboard of thousands of sheets in one folder holds
    /// one descriptor for it, not one a sheet.
    private static let live = Mutex<[FileIdentity: WeakFolder]>([:])

    private struct WeakFolder: Sendable {
        weak let folder: OutputFolder?
    }

    /// The open folder `fd` is, as one already open when there is one (`fd` is then closed).
    private static func shared(_ fd: Int32, path: String) -> OutputFolder {
        var status = stat()
        guard fstat(fd, &status) == 0 else { return OutputFolder(descriptor: fd, path: path, identity: nil) }
        let identity = FileIdentity(status)
        return live.withLock { live in
            if let existing = live[identity]?.folder {
                close(fd)
                return existing
            }
            let folder = OutputFolder(descriptor: fd, path: path, identity: identity)
            live[identity] = WeakFolder(folder: folder)
            return folder
        }
    }

    /// Opens the folder at `path` as the user named it (links in it followed, as any path of theirs is).
    public static func open(_ path: String) throws -> OutputFolder {
        let name = path.isEmpty ? "." : path
        let fd = FileSystem.open(name, FileSystem.openPath | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT || errno == ENOTDIR { throw SystemError("its folder \(name) does not exist", code: errno) }
            throw SystemError("cannot open the folder \(name)")
        }
        return shared(fd, path: name)
    }

    /// The folder `components` below this one, made where missing when `creating`. A link, or
    /// anything but a folder, on the way is refused: `output` (named in messages) would land elsewhere.
    public func descend(_ components: [String], creating: Bool, for output: String) throws -> OutputFolder {
        var folder = self
        for component in components where !component.isEmpty && component != "." {
            guard component != ".." else { throw OutputError.escapes(path: output, folder: path) }
            if creating {
                // Another worker may make it at the same moment.
                let made = PathBytes.withCString(component) { mkdirat(folder.descriptor, $0, 0o777) }
                if made != 0 && errno != EEXIST { throw SystemError("cannot make folder \(folder.path)/\(component)") }
            }
            let fd = PathBytes.withCString(component) { name in
                FileSystem.retryingInterrupted { openat(folder.descriptor, name, FileSystem.openPath | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
            }
            let below = folder.path == "." ? component : folder.path + "/" + component
            guard fd >= 0 else {
                if errno == ELOOP || errno == ENOTDIR {
                    throw OutputError.escapes(path: output, folder: path)
                }
                if errno == ENOENT { throw SystemError("its folder \(below) does not exist", code: ENOENT) }
                throw SystemError("cannot open the folder \(below)")
            }
            folder = Self.shared(fd, path: below)
        }
        return folder
    }

    /// The status of `name` in this folder, links not followed; nil when there is nothing there.
    public func status(of name: String) -> stat? {
        var found = stat()
        let result: Int32 = PathBytes.withCString(name) { fstatat(descriptor, $0, &found, AT_SYMLINK_NOFOLLOW) }
        return result == 0 ? found : nil
    }

    @discardableResult
    public func unlink(_ name: String) -> Int32 {
        PathBytes.withCString(name) { unlinkat(descriptor, $0, 0) }
    }

    /// Makes the names created, renamed or removed in this folder durable (fsync of the folder).
    /// A file system that cannot sync a folder (EINVAL) has nothing to make durable.
    public func sync() throws(SystemError) {
        let fd = PathBytes.withCString(".") { openat(descriptor, $0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard fd >= 0 else { throw SystemError("cannot open the folder \(path) to sync it") }
        defer { close(fd) }
        if fsync(fd) != 0 && errno != EINVAL && errno != EROFS { throw SystemError("cannot sync the folder \(path)") }
    }

    /// Names in this folder, `.` and `..` left out; nil when it cannot be read.
    public func names() -> [String]? {
        let fd = PathBytes.withCString(".") { openat(descriptor, $0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard fd >= 0 else { return nil }
        return FileSystem.names(inOpenFolder: fd)
    }
}

/// The output folders a batch confines its outputs to (`--out-dir`), held open for the whole run:
/// an output planned under one is created by walking down from its descriptor, never by path.
public enum ConfinedFolders {
    private static let held = Mutex<[(path: String, folder: OutputFolder)]>([])

    /// Makes `path` where missing (as the user named it) and holds it open until `release`.
    public static func hold(_ path: String) throws -> OutputFolder {
        try Folders.create(path)
        let folder = try OutputFolder.open(path)
        held.withLock { $0.append((path, folder)) }
        return folder
    }

    public static func release(_ folder: OutputFolder) {
        held.withLock { $0.removeAll { $0.folder === folder } }
    }

    /// The held folder `path` lies under, and the components below it; nil when none holds it.
    static func placement(of path: String) -> (folder: OutputFolder, components: [String])? {
        held.withLock { entries in
            for entry in entries.sorted(by: { $0.path.count > $1.path.count }) {
                let prefix = entry.path.hasSuffix("/") ? entry.path : entry.path + "/"
                let relative: Substring
                if path.hasPrefix(prefix) {
                    relative = path.dropFirst(prefix.count)
                } else if entry.path == ".", !path.hasPrefix("/") {
                    relative = Substring(path)
                } else {
                    continue
                }
                return (entry.folder, relative.split(separator: "/", omittingEmptySubsequences: true).map(String.init))
            }
            return nil
        }
    }
}
