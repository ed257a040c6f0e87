/// Where each input's output goes: an explicit path (`-o`, one input), a folder (`--out-dir`), or
/// beside the input; named `<stem>.<suffix>.<extension>` unless the path is explicit.
public struct OutputNaming: Sendable, Equatable {
    public var explicitPath: String?
    public var directory: String?
    /// `thumb` in `clip.thumb.png`.
    public var suffix: String

    public init(explicitPath: String? = nil, directory: String? = nil, suffix: String) {
        self.explicitPath = explicitPath
        self.directory = directory
        self.suffix = suffix
    }

    public func outputPath(forInput input: String, fileExtension: String) -> String {
        if let explicitPath { return explicitPath }
        let (folder, name) = AtomicOutputFile.split(input)
        let stem = name.lastIndex(of: ".").map { name[..<$0] }.flatMap { $0.isEmpty ? nil : String($0) } ?? name
        let fileName = "\(stem).\(suffix).\(fileExtension)"
        guard let directory else { return folder + fileName }
        return directory.hasSuffix("/") ? directory + fileName : directory + "/" + fileName
    }

    /// The extension of an explicit output path, lowercased, if it has one.
    public var explicitExtension: String? {
        guard let explicitPath, let dot = explicitPath.lastIndex(of: "."),
              !explicitPath[dot...].contains("/") else { return nil }
        return String(explicitPath[explicitPath.index(after: dot)...]).lowercased()
    }
}
