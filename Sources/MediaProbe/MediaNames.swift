import FFmpeg
import MediaFormats

/// The short format names and MIME types of media files, from FFmpeg's demuxer and the file's
/// brand, as `MediaContainer.all` names them.
enum MediaNames {
    static func name(of facts: MediaFacts, kind: ProbeResult.Kind, start: [UInt8]) -> (format: String, mime: String) {
        let format: MediaContainer?
        switch facts.demuxer {
        case "mov,mp4,m4a,3gp,3g2,mj2":
            let brand = facts.majorBrand ?? ""
            format = MediaContainer.named(brand.hasPrefix("qt") ? "mov" : brand.hasPrefix("M4A") || brand.hasPrefix("M4B") ? "m4a"
                                          : brand.hasPrefix("3g2") ? "3g2" : brand.hasPrefix("3g") ? "3gp" : "mp4")
        case "matroska,webm":
            // The EBML header's DocType comes within the first bytes.
            let isWebM = start.count >= 4 && (0...(start.count - 4)).contains { start[$0..<($0 + 4)].elementsEqual("webm".utf8) }
            format = MediaContainer.named(isWebM ? "webm" : "mkv")
        default:
            format = MediaContainer.read(byDemuxer: facts.demuxer)
        }
        // Pictures FFmpeg reads have their own types; anything else is a video's unless sound only.
        guard let format else { return (String(facts.demuxer.split(separator: ",").first ?? ""), "application/octet-stream") }
        return (format.name, format.mimeType(holdingVideo: kind != .audio))
    }
}
