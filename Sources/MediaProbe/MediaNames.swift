import FFmpeg

/// The short format names and MIME types of media files, from FFmpeg's demuxer and the file's brand.
enum MediaNames {
    static func name(of facts: MediaFacts, kind: ProbeResult.Kind, start: [UInt8]) -> (format: String, mime: String) {
        let family = kind == .audio ? "audio" : "video"
        switch facts.demuxer {
        case "mov,mp4,m4a,3gp,3g2,mj2":
            let brand = facts.majorBrand ?? ""
            if brand.hasPrefix("qt") { return ("mov", "video/quicktime") }
            if brand.hasPrefix("M4A") || brand.hasPrefix("M4B") { return ("m4a", "audio/mp4") }
            if brand.hasPrefix("3g2") { return ("3g2", "\(family)/3gpp2") }
            if brand.hasPrefix("3g") { return ("3gp", "\(family)/3gpp") }
            return ("mp4", "\(family)/mp4")
        case "matroska,webm":
            // The EBML header's DocType comes within the first bytes.
            let isWebM = start.count >= 4 && (0...(start.count - 4)).contains { start[$0..<($0 + 4)].elementsEqual("webm".utf8) }
            return isWebM ? ("webm", "\(family)/webm") : ("mkv", "\(family)/x-matroska")
        case "gif": return ("gif", "image/gif")
        case "apng": return ("png", "image/apng")
        default:
            let name = String(facts.demuxer.split(separator: ",").first ?? "")
            let known: [String: (String, String)] = [
                "avi": ("avi", "video/x-msvideo"), "mpegts": ("ts", "video/mp2t"), "mpeg": ("mpg", "video/mpeg"),
                "mpegvideo": ("m2v", "video/mpeg"), "flv": ("flv", "video/x-flv"), "ogg": ("ogg", "\(family)/ogg"),
                "mp3": ("mp3", "audio/mpeg"), "wav": ("wav", "audio/wav"), "flac": ("flac", "audio/flac"), "aac": ("aac", "audio/aac"),
                "asf": ("asf", "video/x-ms-asf"), "h264": ("h264", "video/h264"), "hevc": ("hevc", "video/h265"),
                "bmp_pipe": ("bmp", "image/bmp"), "ico": ("ico", "image/vnd.microsoft.icon"), "psd_pipe": ("psd", "image/vnd.adobe.photoshop"),
            ]
            return known[name] ?? known[facts.demuxer] ?? (name, "application/octet-stream")
        }
    }
}
