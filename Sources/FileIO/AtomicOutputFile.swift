import Glibc
import Synchronization

/// An output written to a temporary file beside its destination and moved into place only when
/// complete, so that no reader, crash or `kill -9` ever sees a partial or empty file under its name.
///
/// Everything happens relative to the destination's folder, held open (`OutputFolder`): under a
/// confined folder (`--out-dir`) it is reached from the folder opened at the start, one component
/// at a time without following links, so a folder swapped for a link mid-run redirects nothing.
///
/// The temporary, `.mediatool-tmp-<pid>-<random>-<host>` (short, so that an output name of up to
/// 255 bytes still has room beside it), holds an exclusive `flock` from its creation to its commit:
/// a later run removes only temporaries whose lock it can take, so a live run's temporary is never
/// taken for a leftover, whatever PID namespace or machine it runs in. It is removed when the value
/// is released without `commit()`, and by `Interrupts` when a signal ends the process.
///
/// Only a regular file is ever replaced, and the file that replaces it keeps its mode (and, as
/// root, its owner and group). A character device or FIFO named by the user is written through
/// instead (there is nothing to replace), and a symbolic link named by the user is followed.
public final class AtomicOutputFile {
    public static let temporaryMarker = ".mediatool-tmp-"
    /// The output name that means standard output, when the user gives it (`-o -`).
    public static let standardOutputName = "-"

    /// The path asked for.
    public let path: String
    public let descriptor: Int32
    /// nil when writing through a device, a FIFO or standard output.
    private var destination: Destination?
    private var isOpen = true
    private var isCommitted = false

    /// Where a finished file lands: a name in a folder held open, and its temporary beside it.
    private struct Destination {
        let folder: OutputFolder
        let name: String
        /// Its name now: renamed when it is finished beside another (see `finish(besides:)`).
        var temporary: String
        /// The temporary's device and inode: what the name holds once committed, unless replaced since.
        let identity: FileIdentity
        let overwrite: Bool
        let syncs: Bool
        /// The job's own input, which this output may replace (`OutputPolicy.replacesItsInput`).
        let ownInput: FileIdentity?
    }

    /// Creates the temporary file, or opens the device or FIFO. Fails up front when `path` exists
    /// and may not be replaced, or is an input of the run.
    /// `replacing`: the job's own input, which `policy.replacesItsInput` lets this output replace.
    public init(path: String, policy: OutputPolicy, replacing ownInput: FileIdentity? = nil) throws {
        self.path = path
        if path == Self.standardOutputName && policy.isNamedByUser {
            // `-o -`: the picture goes to standard output; nothing named "-" is ever made.
            descriptor = try FileSystem.valueOrErrno("cannot write to standard output") { fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 0) }
            destination = nil
            return
        }
        let (folder, name, existing) = try Self.place(of: path, policy: policy)
        var replaced: stat?
        if let status = existing {
            switch status.st_mode & S_IFMT {
            case S_IFREG where policy.isNamedByUser && Self.isStandardOutput(status):
                // `-o /dev/stdout > file` (or >>): the shell opened the file for this output already.
                descriptor = try FileSystem.valueOrErrno("cannot write \(path)") { fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 0) }
                destination = nil
                return
            case S_IFREG:
                let isOwnInput = policy.replacesItsInput && ownInput == FileIdentity(status)
                if RunInputs.contains(FileIdentity(status)) && !isOwnInput { throw OutputError.wouldOverwriteInput(path: path) }
                guard policy.overwrite else { throw OutputError.exists(path: path) }
                replaced = status
            // (`where` binds to the last pattern only: each kind states it.)
            case S_IFCHR where policy.isNamedByUser, S_IFIFO where policy.isNamedByUser:
                if RunInputs.contains(FileIdentity(status)) { throw OutputError.wouldOverwriteInput(path: path) }
                descriptor = try Self.openThrough(path, isFIFO: status.st_mode & S_IFMT == S_IFIFO)
                destination = nil
                return
            default:
                throw OutputError.notRegular(path: path, kind: FileSystem.kind(of: status))
            }
        }
        let (fd, temporary, identity) = try Self.createTemporary(in: folder, for: path)
        if let replaced {
            // The new file takes the place of the old: its permissions too (a 0600 file stays 0600).
            _ = fchmod(fd, replaced.st_mode & 0o7777)
            if geteuid() == 0 { _ = fchown(fd, replaced.st_uid, replaced.st_gid) } else { _ = fchown(fd, UInt32.max, replaced.st_gid) }
        }
        descriptor = fd
        destination = Destination(folder: folder, name: name, temporary: temporary, identity: identity, overwrite: policy.overwrite,
                                  syncs: policy.syncs, ownInput: policy.replacesItsInput ? ownInput : nil)
    }

    deinit {
        if isOpen { close(descriptor) }
        if !isCommitted, let destination { Self.discard(destination.temporary, in: destination.folder) }
    }

    /// Whether its descriptor is still open: not yet finished nor committed.
    public var isWriting: Bool { isOpen }

    /// Whether `other` is written in the same folder as this, both to be moved into place.
    public func sharesFolder(with other: AtomicOutputFile) -> Bool {
        guard let destination, let theirs = other.destination else { return false }
        return destination.folder === theirs.folder
    }

    /// Closes the finished file before its commit, so that a group of thousands holds no
    /// descriptor for each. Its lock goes with its descriptor: the temporary takes the name of
    /// `anchor`'s (an output still open in the same folder) with a number after it, which a run
    /// removing leftovers leaves alone while the anchor's lock is held (see `TemporaryFiles`).
    /// The anchor must be committed after it.
    public func finish(besides anchor: AtomicOutputFile) throws {
        guard isOpen, var destination, let anchorTemporary = anchor.destination?.temporary, anchor.isOpen, sharesFolder(with: anchor) else { return }
        let folder = destination.folder
        let finished = "\(anchorTemporary)-\(Self.finishedCount.add(1, ordering: .relaxed).newValue)"
        let old = destination.temporary
        // Renamed and listed anew in one step under the list's lock (see `createTemporary`).
        let renamed = Self.unfinished.withLock { entries -> Int32 in
            let renamed = PathBytes.withCString(old) { from in
                PathBytes.withCString(finished) { renameat(folder.descriptor, from, folder.descriptor, $0) }
            }
            guard renamed == 0 else { return renamed }
            entries.removeValue(forKey: Self.key(old, in: folder))
            if Self.isClosed { folder.unlink(finished) } else { entries[Self.key(finished, in: folder)] = folder }
            return 0
        }
        guard renamed == 0 else { throw SystemError("cannot rename a temporary file in \(folder.path)") }
        destination.temporary = finished
        self.destination = destination
        isOpen = false
        let synced = !destination.syncs || fsync(descriptor) == 0
        guard close(descriptor) == 0, synced else { throw SystemError("cannot write \(path)") }
    }

    /// The folder this file is moved into, to be synced once its group is in place; nil when the
    /// output goes through a device or standard output, or is not to be synced.
    var folderToSync: OutputFolder? { destination.flatMap { $0.syncs ? $0.folder : nil } }

    /// Numbers the finished temporaries of this process.
    private static let finishedCount = Atomic<Int>(0)

    /// Moves the finished file into place (and closes it, which lets its lock go), its data synced
    /// first and its folder after (unless `syncsFolder` is false: a group syncs each of its folders
    /// once). Without `overwrite`, an output that appeared meanwhile is kept.
    public func commit(syncsFolder: Bool = true) throws {
        guard let destination else {
            isOpen = false
            guard close(descriptor) == 0 else { throw SystemError("cannot write \(path)") }
            isCommitted = true
            return
        }
        let folder = destination.folder
        if destination.syncs && isOpen && fsync(descriptor) != 0 { throw SystemError("cannot write \(path)") }
        if destination.overwrite {
            // Something other than a regular file, or an input, may have taken the name since the start.
            if let status = folder.status(of: destination.name) {
                guard status.st_mode & S_IFMT == S_IFREG else { throw OutputError.notRegular(path: path, kind: FileSystem.kind(of: status)) }
                if RunInputs.contains(FileIdentity(status)) && destination.ownInput != FileIdentity(status) {
                    throw OutputError.wouldOverwriteInput(path: path)
                }
            }
            let renamed = PathBytes.withCString(destination.temporary) { from in
                PathBytes.withCString(destination.name) { renameat(folder.descriptor, from, folder.descriptor, $0) }
            }
            guard renamed == 0 else { throw SystemError("cannot rename to \(path)") }
        } else {
            // link(2) fails on an existing destination, where rename(2) would replace it.
            let linked = PathBytes.withCString(destination.temporary) { from in
                PathBytes.withCString(destination.name) { linkat(folder.descriptor, from, folder.descriptor, $0, 0) }
            }
            guard linked == 0 else {
                if errno == EEXIST { throw OutputError.exists(path: path) }
                throw SystemError("cannot create \(path)")
            }
            folder.unlink(destination.temporary)
        }
        Self.forget(destination.temporary, in: folder)
        isCommitted = true
        if syncsFolder && destination.syncs {
            do { try folder.sync() } catch {
                withdraw()
                throw error
            }
        }
        guard isOpen else { return }
        isOpen = false
        // Some file systems report the last write errors only here: the file is not left in place then.
        guard close(descriptor) == 0 else {
            let error = SystemError("cannot write \(path)")
            withdraw()
            throw error
        }
    }

    /// Removes a committed file again (its group could not all be committed), unless something
    /// else has taken its name since.
    public func withdraw() {
        guard isCommitted, let destination, let status = destination.folder.status(of: destination.name),
              FileIdentity(status) == destination.identity else { return }
        destination.folder.unlink(destination.name)
    }

    /// The folder `path` is written in and its name there. A path under a confined folder is
    /// reached from it without following links; one named by the user is found as they named it,
    /// a link at the end followed to the file it leads to. Also the status of what is there now.
    private static func place(of path: String, policy: OutputPolicy) throws -> (OutputFolder, String, stat?) {
        var path = path
        if policy.isNamedByUser, let status = FileSystem.linkStatus(path), status.st_mode & S_IFMT == S_IFLNK {
            // A regular file is replaced where it really is (devices and FIFOs are opened by the link).
            guard let target = FileSystem.status(path) else { throw OutputError.danglingLink(path: path) }
            if target.st_mode & S_IFMT == S_IFREG {
                guard let resolved = FileSystem.realPath(path) else { throw OutputError.danglingLink(path: path) }
                path = resolved
            } else {
                let (directory, name) = split(path)
                return (try open(directory, for: path), name, target)
            }
        }
        if !policy.isNamedByUser, let confined = ConfinedFolders.placement(of: path), let name = confined.components.last {
            let folder = try confined.folder.descend(Array(confined.components.dropLast()), creating: true, for: path)
            return (folder, name, folder.status(of: name))
        }
        let (directory, name) = split(path)
        let folder = try open(directory, for: path)
        return (folder, name, folder.status(of: name))
    }

    private static func open(_ directory: String, for path: String) throws -> OutputFolder {
        do {
            return try OutputFolder.open(directory)
        } catch let error as SystemError where error.code == ENOENT || error.code == ENOTDIR {
            // The folder is what is missing, not a temporary: say so in the user's terms.
            throw OutputError.missingFolder(path: path, folder: directory.isEmpty ? "." : directory)
        }
    }

    /// A new temporary in `folder`, locked. A run removing leftovers may take the lock of one just
    /// made before its maker does: the maker then sees the lock taken, or the name gone, and makes another.
    /// Made and listed in one step under the list's lock: a process ending meanwhile (its
    /// temporaries removed, then `_exit`) finds every temporary made listed, and none is made after.
    private static func createTemporary(in folder: OutputFolder, for path: String) throws -> (Int32, String, FileIdentity) {
        while true {
            let name = "\(temporaryMarker)\(getpid())-\(String(UInt64.random(in: 0...UInt64.max), radix: 36))-\(hostTag)"
            let made = unfinished.withLock { entries -> Result<(Int32, String, FileIdentity)?, any Error> in
                if isClosed { return .failure(SystemError("the run is ending", code: ECANCELED)) }
                // 0666 so that the umask decides, as for any file a tool creates.
                // Readable too: a web video moves its `moov` before its media data in place (MP4Faststart).
                let fd = PathBytes.withCString(name) { openat(folder.descriptor, $0, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o666) }
                if fd < 0 {
                    if errno == EEXIST || errno == EINTR { return .success(nil) }
                    if errno == ENOENT { return .failure(OutputError.missingFolder(path: path, folder: folder.path)) }
                    return .failure(SystemError("cannot create a temporary file in \(folder.path)"))
                }
                var own = stat()
                if flock(fd, LOCK_EX | LOCK_NB) == 0, fstat(fd, &own) == 0,
                   let there = folder.status(of: name), FileIdentity(there) == FileIdentity(own) {
                    entries[key(name, in: folder)] = folder
                    return .success((fd, name, FileIdentity(own)))
                }
                close(fd)
                return .success(nil)
            }
            if let created = try made.get() { return created }
        }
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

    /// The temporaries of outputs not yet committed, so that a signal can remove them: each name's
    /// bytes and the folder, held open while it is listed. A dictionary: a storyboard of thousands
    /// of frames moves them into place one after another, each taken off the list.
    private static let unfinished = Mutex<[TemporaryKey: OutputFolder]>([:])

    private struct TemporaryKey: Hashable, Sendable {
        let folder: ObjectIdentifier
        let name: [UInt8]
    }

    private static func key(_ temporary: String, in folder: OutputFolder) -> TemporaryKey {
        TemporaryKey(folder: ObjectIdentifier(folder), name: PathBytes.bytes(temporary))
    }

    private static func discard(_ temporary: String, in folder: OutputFolder) {
        folder.unlink(temporary)
        forget(temporary, in: folder)
    }

    private static func forget(_ temporary: String, in folder: OutputFolder) {
        _ = unfinished.withLock { $0.removeValue(forKey: key(temporary, in: folder)) }
    }

    /// Removes every temporary not yet committed: the process is about to end. One made or
    /// renamed after this (by a job still running until the process ends) is removed at once.
    public static func removeUnfinishedTemporaries() {
        unfinished.withLock { entries in
            for (key, folder) in entries { folder.unlink(PathBytes.string(key.name)) }
            entries.removeAll()
            isClosed = true
        }
    }

    /// Set, under `unfinished`'s lock, once the temporaries were removed for the end.
    nonisolated(unsafe) private static var isClosed = false

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
