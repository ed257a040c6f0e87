import Glibc
import Synchronization

/// The inputs of this run, by device and inode: every output is checked against all of them, by
/// whichever path, link or descriptor (`/proc/self/fd/0`) it is reached, so that no writer of any
/// subcommand can replace a file the run reads.
public enum RunInputs {
    private static let identities = Mutex<Set<FileIdentity>>([])

    /// Adds the regular files, FIFOs and pipes among `paths` (`-`: what standard input is). A pipe
    /// counts: `-o /proc/self/fd/0` on a pipe opened the input's own write end, and the run waited
    /// for an end that never came. (Devices do not: `/dev/null` is read and written by many.)
    /// Returns the identities it added (not those already there), for `withdraw`.
    @discardableResult
    public static func register(paths: some Sequence<String>) -> [FileIdentity] {
        var added: [FileIdentity] = []
        for path in paths {
            guard let status = path == "-" ? FileSystem.status(ofDescriptor: STDIN_FILENO) : FileSystem.status(path),
                  status.st_mode & S_IFMT == S_IFREG || status.st_mode & S_IFMT == S_IFIFO else { continue }
            if register(FileIdentity(status)) { added.append(FileIdentity(status)) }
        }
        return added
    }

    @discardableResult
    public static func register(_ identity: FileIdentity) -> Bool {
        identities.withLock { $0.insert(identity).inserted }
    }

    /// Inputs no longer read: `--serve` holds each only while its job runs, so that a server fed
    /// files for days neither grows with them nor refuses an output whose inode was once an input's.
    public static func withdraw(_ added: [FileIdentity]) {
        identities.withLock { identities in
            for identity in added { identities.remove(identity) }
        }
    }

    public static func contains(_ identity: FileIdentity) -> Bool {
        identities.withLock { $0.contains(identity) }
    }

    /// True when `path` (links followed) is one of the run's inputs.
    public static func contains(path: String) -> Bool {
        FileIdentity(path: path).map(contains) ?? false
    }
}
