import FileIO

/// Removes where and by whom from a picture or video without touching its pictures or samples:
/// the one entry point. The container is told once, by its first bytes, and its stripper keeps
/// it; each stripper reads only the structures that hold metadata, and says what to change as
/// byte edits, which `ByteEdits.write` applies while copying the rest.
public struct MetadataStripper: Sendable {
    public let groups: Set<StripGroup>

    public init(removing groups: Set<StripGroup> = StripGroup.removedByDefault) {
        self.groups = groups
    }

    /// The containers strip reads, by their first bytes: the one place a format is told.
    private static let containers: [(recognises: @Sendable ([UInt8]) -> Bool, strip: @Sendable (FileBytes, Set<StripGroup>) throws -> ByteEdits)] = [
        (JPEGStripper.recognises, { try JPEGStripper(bytes: $0, groups: $1).strip().edits }),
        (PNGStripper.recognises, { try PNGStripper(bytes: $0, groups: $1).strip() }),
        (WebPStripper.recognises, { try WebPStripper(bytes: $0, groups: $1).strip() }),
        (TIFFStripper.recognises, { try TIFFStripper(bytes: $0, groups: $1).strip() }),
        // HEIF before QuickTime: both begin with `ftyp`, told apart by their brands.
        (HEIFStripper.recognises, { try HEIFStripper(bytes: $0, groups: $1).strip() }),
        (QuickTimeStripper.recognises, { try QuickTimeStripper(bytes: $0, groups: $1).strip(0..<$0.size) }),
    ]

    /// Whether strip reads a file that begins with `start`.
    public static func recognises(_ start: [UInt8]) -> Bool {
        containers.contains { $0.recognises(start) }
    }

    /// What stripping the MP4 at `range` of `file` changes (a Motion Photo's video, written as a
    /// file of its own), and what it removes.
    public func edits(for file: InputFile, videoAt range: Range<Int>) throws -> ByteEdits {
        guard Self.videoFollowsPicture(in: file, at: range) else { throw StripError.motionVideoInsidePicture(at: range.lowerBound) }
        return try QuickTimeStripper(bytes: try FileBytes(file), groups: groups).strip(range)
    }

    /// Whether a Motion Photo's video at `range`, as its XMP says, starts past the picture: after
    /// a JPEG's EOI, or at a HEIF's top-level box. An offset that lies into the picture would
    /// make a "video" of the picture's own segments (its EXIF position among them) and strip
    /// them as a movie's boxes, which they are not.
    public static func videoFollowsPicture(in file: InputFile, at range: Range<Int>) -> Bool {
        guard let bytes = try? FileBytes(file), let start = try? bytes.peek(at: 0, count: 64) else { return false }
        if JPEGStripper.recognises(start) {
            guard let end = try? JPEGStripper(bytes: bytes, groups: []).end() else { return false }
            return range.lowerBound >= end
        }
        // A HEIF: its top-level boxes walked from the first, one of them starting where the video does.
        var at = 0
        while at < range.lowerBound {
            guard let head = try? bytes.peek(at: at, count: 16), let box = MovieBox.at(0, in: head, limit: bytes.size - at) else { return false }
            at += box.end
        }
        return at == range.lowerBound
    }

    /// What stripping `file` changes, and what it removes.
    public func edits(for file: InputFile) throws -> ByteEdits {
        let bytes = try FileBytes(file)
        let start = try bytes.peek(at: 0, count: 64)
        guard let container = Self.containers.first(where: { $0.recognises(start) }) else {
            throw StripError.unsupported(found: "")
        }
        return try container.strip(bytes, groups)
    }
}
