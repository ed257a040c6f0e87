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
    public static func register(paths: some Sequence<String>) {
        for path in paths {
            guard let status = path == "-" ? FileSystem.status(ofDescriptor: STDIN_FILENO) : FileSystem.status(path),
                  status.st_mode & S_IFMT == S_IFREG || status.st_mode & S_IFMT == S_IFIFO else { continue }
            register(FileIdentity(status))
        }
    }

    public static func register(_ identity: FileIdentity) {
        _ = identities.withLock { $0.insert(identity) }
    }

    public static func contains(_ identity: FileIdentity) -> Bool {
        identities.withLock { $0.contains(identity) }
    }

    /// True when `path` (links followed) is one of the run's inputs.
    public static func contains(path: String) -> Bool {
        FileIdentity(path: path).map(contains) ?? false
    }
}
