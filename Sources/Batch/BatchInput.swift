/// One input of a batch: its path, and where it stands under the folder it was found in, which is
/// where its output stands under `--out-dir`.
public struct BatchInput: Sendable, Hashable, CustomStringConvertible {
    /// The path to open.
    public let path: String
    /// The path under the folder given on the command line; the file name for a file given itself.
    public let relativePath: String
    /// Why this entry could not be listed (an unreadable folder): it is reported as one failed input.
    public let problem: String?
    /// Found by looking into a folder, not named by the user.
    public let isFoundInFolder: Bool

    public init(path: String, relativePath: String, problem: String? = nil, isFoundInFolder: Bool = false) {
        self.path = path
        self.relativePath = relativePath
        self.problem = problem
        self.isFoundInFolder = isFoundInFolder
    }

    public var description: String { path }

    /// The relative folder ("" for none), the name without its extension, and the extension.
    var parts: (folder: String, stem: String, fileExtension: String) {
        let slash = relativePath.lastIndex(of: "/")
        let folder = slash.map { String(relativePath[..<$0]) } ?? ""
        let name = slash.map { String(relativePath[relativePath.index(after: $0)...]) } ?? relativePath
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return (folder, name, "") }
        return (folder, String(name[..<dot]), String(name[name.index(after: dot)...]))
    }
}
