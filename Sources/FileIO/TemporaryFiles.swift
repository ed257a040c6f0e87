import Glibc

/// Finds and removes the temporaries that runs which died left behind.
public enum TemporaryFiles {
    /// Leftovers of another machine are removed only when older than this: it may still be writing.
    public static let foreignAge: Int = 24 * 3600

    /// Removes, in `folder`, the temporaries of processes of this machine that are gone, and those of
    /// other machines older than a day. Returns the names removed.
    @discardableResult
    public static func removeLeftovers(in folder: String) -> [String] {
        guard let names = FileSystem.names(in: folder) else { return [] }
        var removed: [String] = []
        let now = time(nil)
        for name in names {
            guard let owner = owner(ofTemporary: name) else { continue }
            let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
            guard let status = FileSystem.linkStatus(path), status.st_mode & S_IFMT == S_IFREG else { continue }
            if owner.host == AtomicOutputFile.hostTag {
                // kill(pid, 0) fails with ESRCH when no such process lives.
                guard kill(owner.pid, 0) != 0 && errno == ESRCH else { continue }
            } else {
                guard Int(now) - Int(status.st_mtim.tv_sec) > foreignAge else { continue }
            }
            if FileSystem.unlink(path) == 0 { removed.append(name) }
        }
        return removed.sorted()
    }

    /// Removes the leftovers in the folder `output` would be written to.
    @discardableResult
    public static func removeLeftovers(besides output: String) -> [String] {
        let folder = AtomicOutputFile.split(output).directory
        return removeLeftovers(in: folder.isEmpty ? "." : folder)
    }

    /// The process and machine that made a temporary, from its name `.mediatool-tmp-<pid>-<random>-<host>`.
    static func owner(ofTemporary name: String) -> (pid: pid_t, host: String)? {
        guard name.hasPrefix(AtomicOutputFile.temporaryMarker) else { return nil }
        let fields = name.dropFirst(AtomicOutputFile.temporaryMarker.count).split(separator: "-", omittingEmptySubsequences: false)
        guard fields.count == 3, let pid = pid_t(fields[0]), !fields[1].isEmpty, !fields[2].isEmpty else { return nil }
        return (pid, String(fields[2]))
    }
}
