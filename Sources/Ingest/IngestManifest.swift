import JSON
import MediaProbe

/// The manifest `ingest` writes beside an upload's outputs, and its JSON line: the input, its
/// probe's fields, each output made (or kept from an earlier run), and the placeholders and
/// hashes. Written by `JSONValueEncoder`, paths as paths (docs/ingest.md).
struct IngestManifest: Encodable {
    let input: String
    let probe: ProbeResult
    let includesGPS: Bool
    let entries: [Entry]
    /// ThumbHash and BlurHash, where the recipe asks and a picture gave them.
    let placeholders: (thumbHash: String, blurHash: String)?
    /// dHash and pHash likewise.
    let hashes: (difference: String, perceptual: String)?

    /// One output of the upload: a picture's rendition, a video's storyboard or preview, each as
    /// made or as kept (made by an earlier run, `--skip-existing`).
    enum Entry: Encodable {
        case rendition(name: String, path: String, file: String, width: Int, height: Int, format: String, mime: String, bytes: Int?)
        case keptRendition(name: String, width: Int, height: Int, format: String)
        case storyboard(path: String, file: String, width: Int, height: Int, frames: Int, sheets: [String])
        case preview(path: String, file: String, width: Int, height: Int, format: String, bytes: Int, frames: Int, milliseconds: Int)
        /// `because`: what kept browsers from playing the upload as it is (empty: made as the recipe says always).
        case webVideo(path: String, file: String, width: Int, height: Int, codecs: String, milliseconds: Int, frames: Int, bytes: Int,
                      because: [String])
        /// An HLS ladder: its master playlist, and each rendition's files from the manifest's folder.
        case hlsLadder(path: String, file: String, milliseconds: Int, frames: Int, renditions: [LadderRendition], because: [String])
        /// None made: the upload plays in browsers as it is.
        case webVideoNotNeeded
        case kept(name: String)
        /// The upload stripped (`"original": true`): what was removed, as `strip` reports it.
        case original(path: String, file: String, width: Int, height: Int, format: String, bytes: Int, removed: [String])
        /// A Motion Photo's video, written as a file of its own.
        case motionVideo(path: String, file: String, bytes: Int, removed: [String])

        private enum Key: String, CodingKey {
            case name, path, file, width, height, format, mime, codecs, bytes, frames, sheets, milliseconds, renditions, because, kept, removed
            case playsAsUploaded = "plays_as_uploaded"
        }

        func encode(to encoder: any Encoder) throws {
            var entry = encoder.container(keyedBy: Key.self)
            switch self {
            case .rendition(let name, let path, let file, let width, let height, let format, let mime, let bytes):
                try Self.made(name: name, path: path, file: file, width: width, height: height, format: format, into: &entry)
                try entry.encode(mime, forKey: .mime)
                try entry.encode(bytes, forKey: .bytes)
            case .keptRendition(let name, let width, let height, let format):
                try entry.encode(JSONPath(name), forKey: .name)
                try entry.encodeNil(forKey: .path)
                try entry.encodeNil(forKey: .file)
                try entry.encode(width, forKey: .width)
                try entry.encode(height, forKey: .height)
                try entry.encode(format, forKey: .format)
                try entry.encode(true, forKey: .kept)
            case .storyboard(let path, let file, let width, let height, let frames, let sheets):
                try Self.made(name: "storyboard", path: path, file: file, width: width, height: height, format: "vtt", into: &entry)
                try entry.encode(frames, forKey: .frames)
                try entry.encode(sheets.map(JSONPath.init), forKey: .sheets)
            case .preview(let path, let file, let width, let height, let format, let bytes, let frames, let milliseconds):
                try Self.made(name: "preview", path: path, file: file, width: width, height: height, format: format, into: &entry)
                try entry.encode(bytes, forKey: .bytes)
                try entry.encode(frames, forKey: .frames)
                try entry.encode(milliseconds, forKey: .milliseconds)
            case .webVideo(let path, let file, let width, let height, let codecs, let milliseconds, let frames, let bytes, let because):
                try Self.made(name: "web_video", path: path, file: file, width: width, height: height, format: "mp4", into: &entry)
                try entry.encode(codecs, forKey: .codecs)
                try entry.encode(milliseconds, forKey: .milliseconds)
                try entry.encode(frames, forKey: .frames)
                try entry.encode(bytes, forKey: .bytes)
                try entry.encode(because, forKey: .because)
            case .hlsLadder(let path, let file, let milliseconds, let frames, let renditions, let because):
                try Self.made(name: "web_video", path: path, file: file, width: renditions.first?.width ?? 0,
                              height: renditions.first?.height ?? 0, format: "hls", into: &entry)
                try entry.encode(milliseconds, forKey: .milliseconds)
                try entry.encode(frames, forKey: .frames)
                try entry.encode(renditions, forKey: .renditions)
                try entry.encode(because, forKey: .because)
            case .webVideoNotNeeded:
                try entry.encode("web_video", forKey: .name)
                try entry.encodeNil(forKey: .path)
                try entry.encode(true, forKey: .playsAsUploaded)
            case .kept(let name):
                try entry.encode(name, forKey: .name)
                try entry.encodeNil(forKey: .path)
                try entry.encode(true, forKey: .kept)
            case .original(let path, let file, let width, let height, let format, let bytes, let removed):
                try Self.made(name: "original", path: path, file: file, width: width, height: height, format: format, into: &entry)
                try entry.encode(bytes, forKey: .bytes)
                try entry.encode(removed, forKey: .removed)
            case .motionVideo(let path, let file, let bytes, let removed):
                try entry.encode("motion_video", forKey: .name)
                try entry.encode(JSONPath(path), forKey: .path)
                try entry.encode(JSONPath(file), forKey: .file)
                try entry.encode("mp4", forKey: .format)
                try entry.encode(bytes, forKey: .bytes)
                try entry.encode(removed, forKey: .removed)
            }
        }

        /// What every output made says first: its name (the recipe's, written as the batch writes
        /// names), where it is, from the manifest's folder too, its size and format.
        private static func made(name: String, path: String, file: String, width: Int, height: Int, format: String,
                                 into entry: inout KeyedEncodingContainer<Key>) throws {
            try entry.encode(JSONPath(name), forKey: .name)
            try entry.encode(JSONPath(path), forKey: .path)
            try entry.encode(JSONPath(file), forKey: .file)
            try entry.encode(width, forKey: .width)
            try entry.encode(height, forKey: .height)
            try entry.encode(format, forKey: .format)
        }
    }

    /// One rendition of a ladder: its files as a site serving the manifest's folder names them.
    struct LadderRendition: Encodable {
        let name: String
        let width: Int
        let height: Int
        let codecs: String
        /// The master playlist's BANDWIDTH: bits a second of its most demanding segment.
        let bandwidth: Int
        let bytes: Int
        let video: JSONPath
        let playlist: JSONPath
    }

    private enum Key: String, CodingKey { case input, renditions, placeholder, hash, thumbhash, blurhash, dhash, phash }

    func encode(to encoder: any Encoder) throws {
        var manifest = encoder.container(keyedBy: Key.self)
        try manifest.encode(JSONPath(input), forKey: .input)
        // The probe's fields, in the same object.
        try ProbeLine(result: probe, includesGPS: includesGPS).encode(to: encoder)
        try manifest.encode(entries, forKey: .renditions)
        if let placeholders {
            var placeholder = manifest.nestedContainer(keyedBy: Key.self, forKey: .placeholder)
            try placeholder.encode(JSONPath(placeholders.thumbHash), forKey: .thumbhash)
            try placeholder.encode(JSONPath(placeholders.blurHash), forKey: .blurhash)
        } else {
            try manifest.encodeNil(forKey: .placeholder)
        }
        if let hashes {
            var hash = manifest.nestedContainer(keyedBy: Key.self, forKey: .hash)
            try hash.encode(JSONPath(hashes.difference), forKey: .dhash)
            try hash.encode(JSONPath(hashes.perceptual), forKey: .phash)
        } else {
            try manifest.encodeNil(forKey: .hash)
        }
    }
}
