import Glibc
import FileIO
import Reporting
import Failures

/// Why the inputs of a batch could not be listed.
public enum InputListError: Error, Equatable, CustomStringConvertible {
    case cannotRead(path: String, reason: String)

    public var description: String {
        switch self {
        case .cannotRead(let path, let reason): return "\(path): \(reason)"
        }
    }
}

/// Which files of a folder a subcommand takes.
public struct InputSelection: Sendable {
    /// Descend into subfolders.
    public var recursive = false
    /// Take the files whose names match this shell pattern, instead of the subcommand's extensions.
    public var includePattern: String?
    /// The subcommand's formats, lowercased, without the dot.
    public var extensions: Set<String>

    public init(extensions: Set<String>) {
        self.extensions = extensions
    }

    func takes(fileName: String) -> Bool {
        if let includePattern { return fnmatch(includePattern, fileName, 0) == 0 }
        guard let dot = fileName.lastIndex(of: ".") else { return false }
        return extensions.contains(fileName[fileName.index(after: dot)...].lowercased())
    }
}

/// Lists the inputs of a batch in a deterministic order: the arguments as given, each folder's
/// files sorted by name; a path listed twice is taken once.
public enum InputCollector {
    /// `arguments` are files and folders; `listFile` (`-` for standard input) names one path a line.
    /// A file given by name is taken whatever its extension; a folder gives the files the selection
    /// takes, its subfolders too with `recursive`. Hidden files and mediatool's temporaries are passed over.
    public static func collect(arguments: [String], listFile: String?, selection: InputSelection) throws -> [BatchInput] {
        var paths = arguments
        if let listFile { paths += try lines(of: listFile) }
        var inputs: [BatchInput] = []
        // Names as bytes: two names that are one text in Unicode are two files.
        var seen = Set<[UInt8]>()
        for path in paths {
            for input in try expand(path, selection: selection) where seen.insert(PathBytes.bytes(input.path)).inserted {
                inputs.append(input)
            }
        }
        return inputs
    }

    /// The paths of a list file, one a line, as bytes (a name need not be UTF-8).
    private static func lines(of listFile: String) throws -> [String] {
        let source = try InputFile(path: listFile)
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = try chunk.withUnsafeMutableBytes { try source.read(into: $0) }
            if count == 0 { break }
            bytes += chunk[..<count]
        }
        // Bytes, not Characters: "\r\n" is one Character. Spaces belong to file names; a carriage
        // return before the line feed does not.
        return bytes.split(separator: UInt8(ascii: "\n"))
            .map { $0.last == UInt8(ascii: "\r") ? $0.dropLast() : $0 }
            .filter { !$0.isEmpty }
            .map { PathBytes.string($0) }
    }

    private static func expand(_ path: String, selection: InputSelection) throws -> [BatchInput] {
        // No file name holds a NUL: the system would read the name as ending there, another file.
        if path.utf8.contains(0) {
            return [BatchInput(path: path, relativePath: fileName(of: path), problem: "a name with a NUL byte names no file")]
        }
        guard let status = FileSystem.status(path), status.st_mode & S_IFMT == S_IFDIR else {
            // Not a folder: the job itself says what is wrong with it, if anything.
            return [BatchInput(path: path, relativePath: fileName(of: path))]
        }
        var found: [BatchInput] = []
        try walk(folder: path, relative: "", selection: selection, into: &found)
        if found.isEmpty {
            let hint = selection.recursive ? "--include picks other names" : "--recursive takes subfolders"
            Diagnostics.warning(path, "no files to take in this folder (\(hint))")
        }
        return found
    }

    /// A subfolder that cannot be read is one failed input, and the walk goes on; only the folder
    /// given itself failing to be read stops the listing.
    private static func walk(folder: String, relative: String, selection: InputSelection, into found: inout [BatchInput]) throws {
        guard let names = FileSystem.names(in: folder) else {
            let reason = "cannot read the folder: \(String(cString: strerror(errno)))"
            if relative.isEmpty { throw InputListError.cannotRead(path: folder, reason: reason) }
            found.append(BatchInput(path: folder, relativePath: relative, problem: reason))
            return
        }
        var entries: [(name: String, bytes: [UInt8], isFolder: Bool)] = []
        for name in names where !name.hasPrefix(".") {
            let full = join(folder, name)
            // lstat for folders: a link to a folder is not followed, so no walk can loop.
            guard let status = FileSystem.linkStatus(full) else { continue }
            var isFolder = status.st_mode & S_IFMT == S_IFDIR
            if status.st_mode & S_IFMT == S_IFLNK {
                guard let target = FileSystem.status(full), target.st_mode & S_IFMT == S_IFREG else { continue }
                isFolder = false
            }
            // The name's bytes once, not at each of the sort's comparisons.
            entries.append((name, PathBytes.bytes(name), isFolder))
        }
        for entry in entries.sorted(by: { $0.bytes.lexicographicallyPrecedes($1.bytes) }) {
            let full = join(folder, entry.name)
            let relativeName = relative.isEmpty ? entry.name : relative + "/" + entry.name
            if entry.isFolder {
                if selection.recursive { try walk(folder: full, relative: relativeName, selection: selection, into: &found) }
            } else if selection.takes(fileName: entry.name) {
                found.append(BatchInput(path: full, relativePath: relativeName, isFoundInFolder: true))
            }
        }
    }

    static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    static func fileName(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        return trimmed.lastIndex(of: "/").map { String(trimmed[trimmed.index(after: $0)...]) } ?? String(trimmed)
    }
}

extension InputListError: ClassifiedError {
    public var failureKind: FailureKind { .unreadable }
}
