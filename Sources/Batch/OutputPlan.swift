/// Two inputs that would write one output.
public struct OutputCollision: Error, Equatable, CustomStringConvertible {
    public let output: String
    public let first: String
    public let second: String

    public init(output: String, first: String, second: String) {
        self.output = output
        self.first = first
        self.second = second
    }

    public var description: String { "\(first) and \(second) would both write \(output)" }
}

/// Where each input's output goes: `-o FILE` for a lone input; else a name made from a template,
/// beside the input or, with `--out-dir`, under that folder at the input's relative path.
public struct OutputPlan: Sendable, Equatable {
    public var explicitPath: String?
    public var directory: String?
    /// `{stem}`, `{ext}` (the input's extension) and `{dir}` (its folder's name) are replaced.
    public var template: String

    public init(explicitPath: String? = nil, directory: String? = nil, template: String) {
        self.explicitPath = explicitPath
        self.directory = directory
        self.template = template
    }

    /// The default template of a subcommand: `{stem}.thumb.png`.
    public static func defaultTemplate(suffix: String, fileExtension: String) -> String {
        "{stem}.\(suffix).\(fileExtension)"
    }

    public func output(for input: BatchInput) -> String {
        if let explicitPath { return explicitPath }
        let parts = input.parts
        let inputFolder = Self.folder(of: input.path)
        let folderName = parts.folder.split(separator: "/").last.map(String.init)
            ?? InputCollector.fileName(of: inputFolder ?? ".")
        let name = template
            .replacingEvery("{stem}", with: parts.stem)
            .replacingEvery("{ext}", with: parts.fileExtension)
            .replacingEvery("{dir}", with: folderName)
        if let directory {
            let under = parts.folder.isEmpty ? name : parts.folder + "/" + name
            return InputCollector.join(directory, under)
        }
        return inputFolder.map { InputCollector.join($0, name) } ?? name
    }

    /// The folder part of a path, without its last slash; nil for a bare name.
    static func folder(of path: String) -> String? {
        path.lastIndex(of: "/").map { $0 == path.startIndex ? "/" : String(path[..<$0]) }
    }

    /// Refuses a plan in which two inputs would write one output, before anything is written.
    public func checkCollisions(_ inputs: [BatchInput]) throws(OutputCollision) {
        var owners: [String: String] = [:]
        for input in inputs {
            let output = output(for: input)
            if let first = owners[output] { throw OutputCollision(output: output, first: first, second: input.path) }
            owners[output] = input.path
        }
    }
}


extension String {
    func replacingEvery(_ target: String, with replacement: String) -> String {
        var result = ""
        var rest = Substring(self)
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound]
            result += replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
