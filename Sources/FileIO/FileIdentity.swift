import Glibc

/// Device and inode: two paths with the same identity are the same file.
public struct FileIdentity: Hashable, Sendable {
    public let device: UInt64
    public let inode: UInt64

    public init(_ status: stat) {
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }

    /// The identity of the file at `path` (links followed), or nil when there is none; for `-`, of
    /// what standard input is.
    public init?(path: String) {
        if path == "-" {
            var status = stat()
            guard fstat(STDIN_FILENO, &status) == 0 else { return nil }
            self.init(status)
            return
        }
        guard let status = FileSystem.status(path) else { return nil }
        self.init(status)
    }
}
