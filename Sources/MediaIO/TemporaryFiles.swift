import Glibc

/// Finds and removes the temporaries that runs which died left behind.
public enum TemporaryFiles {
    /// Leftovers of another machine are removed only when older than this: it may still be writing.
    public static let foreignAge: Int = 24 * 3600

    /// Removes, in `folder`, the temporaries of processes of this machine that are gone, and those of
    /// other machines older than a day. Returns the names removed.
    @discardableResult
    public static func removeLeftovers(in folder: String) -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var removed: [String] = []
        let now = time(nil)
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name.hasPrefix("."), let owner = owner(ofTemporary: name) else { continue }
            let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
            if owner.host == AtomicOutputFile.hostName {
                // kill(pid, 0) fails with ESRCH when no such process lives.
                guard kill(owner.pid, 0) != 0 && errno == ESRCH else { continue }
            } else {
                var status = stat()
                guard stat(path, &status) == 0, Int(now) - Int(status.st_mtim.tv_sec) > foreignAge else { continue }
            }
            if unlink(path) == 0 { removed.append(name) }
        }
        return removed
    }

    /// The process and machine that made a temporary, from its name `.<name>.mediatool-tmp-<pid>-<random>-<host>`.
    static func owner(ofTemporary name: String) -> (pid: pid_t, host: String)? {
        guard let marker = name.firstRange(of: AtomicOutputFile.temporaryMarker) else { return nil }
        let fields = name[marker.upperBound...].split(separator: "-", maxSplits: 2, omittingEmptySubsequences: false)
        guard fields.count == 3, let pid = pid_t(fields[0]), !fields[2].isEmpty else { return nil }
        return (pid, String(fields[2]))
    }
}
