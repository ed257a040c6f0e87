import Failures
import FileIO
import Glibc

/// Where an HLS ladder's files go: beside its master playlist CLIP.m3u8, each rendition's
/// video CLIP.720p.mp4 and playlist CLIP.720p.m3u8.
public struct HLSNames: Sendable {
    /// The master's path without its extension.
    let base: String

    public init(master: String) {
        base = master.hasSuffix(".m3u8") ? String(master.dropLast(5)) : master
    }

    /// The most files a ladder writes beside its master: each rung's video and playlist.
    public static let mostFiles = 2 * Transcoder.ladderRungs.count

    public func video(_ rung: String) -> String { "\(base).\(rung).mp4" }
    public func playlist(_ rung: String) -> String { "\(base).\(rung).m3u8" }

    /// The last part of `path`: how a playlist names a file beside it.
    public func fileName(_ path: String) -> String { path.split(separator: "/").last.map(String.init) ?? path }

    /// Whether `path` is one of the ladder's renditions' files.
    public func isRenditionFile(_ path: String) -> Bool {
        Self.master(ofRendition: path).map { HLSNames(master: $0).base == base } ?? false
    }

    /// Whether the master playlist at `master` lists the rendition at `path` (its playlist, of
    /// the same rung): a file found that is known to be a ladder's, not merely named like one.
    public static func isListed(_ path: String, in master: String) -> Bool {
        guard let rung = path.split(separator: ".").dropLast().last else { return false }
        let names = HLSNames(master: master)
        let listed = PathBytes.urlPath(names.fileName(names.playlist(String(rung))))
        // Without waiting on a FIFO's writer (a FIFO named as a master held the plan for ever),
        // and only a regular file read.
        let descriptor = FileSystem.open(master, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        guard let status = FileSystem.status(ofDescriptor: descriptor), status.st_mode & S_IFMT == S_IFREG else { return false }
        // A master lists a few renditions: 64 KiB holds any this writes.
        var bytes = [UInt8](repeating: 0, count: 1 << 16)
        let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return false }
        let lines = String(decoding: bytes[0..<count], as: UTF8.self).split(separator: "\n")
        return lines.first == "#EXTM3U" && lines.contains { $0 == listed }
    }

    /// The master playlist a rendition's video or playlist at `path` is written beside
    /// (BASE.720p.mp4 or .m3u8: BASE.m3u8), a rung named by 1 to 4 digits and "p"; nil for any
    /// other file.
    public static func master(ofRendition path: String) -> String? {
        for fileExtension in [".mp4", ".m3u8"] where path.hasSuffix(fileExtension) {
            let named = path.dropLast(fileExtension.count)
            guard let dot = named.lastIndex(of: "."), !named[..<dot].hasSuffix("/"), dot != named.startIndex else { return nil }
            let rung = named[named.index(after: dot)...]
            guard rung.count >= 2, rung.count <= 5, rung.hasSuffix("p"), rung.dropLast().allSatisfy({ ("0"..."9").contains($0) }) else { return nil }
            return named[..<dot] + ".m3u8"
        }
        return nil
    }
}

/// A ladder whose files cannot be named apart from another's.
public enum HLSNameError: Error, Equatable, CustomStringConvertible {
    case masterNamedAsARendition(master: String)

    public var description: String {
        switch self {
        case .masterNamedAsARendition(let master):
            return "its master playlist \(master) would be named as a rendition's playlist of another video's ladder "
                + "(NAME.720p.m3u8): --name can name it otherwise (e.g. '{stem}-hls.m3u8')"
        }
    }
}

extension HLSNameError: ClassifiedError {
    public var failureKind: FailureKind { .invalidRequest }
}
