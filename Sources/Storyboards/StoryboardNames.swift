/// The files of one storyboard, all beside its WebVTT file and named after it: `clip.vtt` has
/// `clip.sheet-1.jpg`, `clip.sheet-2.jpg`... or, one picture a frame, `clip.001.jpg`...
public struct StoryboardNames: Sendable, Equatable {
    /// The WebVTT file's folder with its slash ("" for the current folder), and its name without `.vtt`.
    private let folder: String
    private let stem: String
    private let fileExtension: String
    private let tiling: Tiling
    private let frameCount: Int

    public init(vtt: String, fileExtension: String, tiling: Tiling, frameCount: Int) {
        let slash = vtt.lastIndex(of: "/")
        folder = slash.map { String(vtt[...$0]) } ?? ""
        var name = slash.map { String(vtt[vtt.index(after: $0)...]) } ?? vtt
        if name.lowercased().hasSuffix(".vtt") { name.removeLast(4) }
        stem = name
        self.fileExtension = fileExtension
        self.tiling = tiling
        self.frameCount = frameCount
    }

    /// Whether `path` is the name of picture `number` (from 1) of the storyboard whose WebVTT file
    /// is `vtt`: in its folder, `STEM.sheet-N.EXT` for sheets, `STEM.NNN.EXT` one picture a frame,
    /// padded as the first picture's name (`first`) was, no wider than `most` pictures need. What a sandboxed worker may ask to write.
    public static func isPicture(_ path: String, number: Int, after first: String?, of vtt: String, fileExtension: String,
                                 tiling: Tiling, most: Int) -> Bool {
        let names = StoryboardNames(vtt: vtt, fileExtension: fileExtension, tiling: tiling, frameCount: 1)
        // Compared as bytes: two spellings of one name in Unicode are two files.
        func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
        let prefix = bytes(names.folder + names.stem + "."), suffix = bytes("." + fileExtension)
        let name = bytes(path)
        guard name.count > prefix.count + suffix.count, name.starts(with: prefix), name.reversed().starts(with: suffix.reversed()) else {
            return false
        }
        let middle = name[prefix.count..<(name.count - suffix.count)]
        switch tiling {
        case .sheets:
            return Array(middle) == bytes("sheet-\(number)")
        case .none:
            let digits = String(number)
            let width = first.map { bytes($0).count - prefix.count - suffix.count } ?? middle.count
            return middle.count == width && width >= digits.count && width <= String(most).count
                && Array(middle) == bytes(String(repeating: "0", count: width - digits.count) + digits)
        }
    }

    /// How many pictures the storyboard writes.
    public var fileCount: Int {
        switch tiling {
        case .sheets(let columns, let rows): return (frameCount + columns * rows - 1) / (columns * rows)
        case .none: return frameCount
        }
    }

    /// The name of picture `index` (from 0), without its folder: what the WebVTT file refers to.
    public func fileName(_ index: Int) -> String {
        switch tiling {
        case .sheets: return "\(stem).sheet-\(index + 1).\(fileExtension)"
        case .none:
            // Padded, so that the files sort in the order of their times.
            let number = String(index + 1)
            let digits = String(frameCount).count
            return "\(stem).\(String(repeating: "0", count: digits - number.count))\(number).\(fileExtension)"
        }
    }

    public func path(_ index: Int) -> String { folder + fileName(index) }

    /// Which picture frame `index` is in, and which cell of it.
    public func place(ofFrame index: Int) -> (file: Int, cell: Int) {
        switch tiling {
        case .sheets(let columns, let rows): return (index / (columns * rows), index % (columns * rows))
        case .none: return (index, 0)
        }
    }

    /// The frames in picture `index`.
    public func frameCount(inFile index: Int) -> Int {
        switch tiling {
        case .sheets(let columns, let rows): return min(columns * rows, frameCount - index * columns * rows)
        case .none: return 1
        }
    }
}
