import Glibc

public enum Folders {
    /// Makes `path` and the folders above it that are missing (mkdir -p).
    public static func create(_ path: String) throws {
        if path.isEmpty || path == "." || path == "/" { return }
        if let status = FileSystem.status(path) {
            guard status.st_mode & S_IFMT == S_IFDIR else { throw SystemError("cannot make folder \(path)", code: ENOTDIR) }
            return
        }
        if let slash = path.dropLast().lastIndex(of: "/") {
            try create(String(path[..<slash]))
        }
        // Another worker may make it at the same moment.
        guard FileSystem.makeFolder(path) == 0 || errno == EEXIST else { throw SystemError("cannot make folder \(path)") }
    }
}
