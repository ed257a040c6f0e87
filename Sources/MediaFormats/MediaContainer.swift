import ImageCodecs

/// The formats mediatool reads through FFmpeg, each with its short name, MIME type and the names
/// its files have: beside `PictureFormat.all` (the picture codecs'), the one table that says what
/// a folder is searched for and what `probe` calls a file. What a file is comes from its bytes
/// (`InputKind`); its name only chooses which files of a folder are looked at.
public struct MediaContainer: Sendable {
    public enum Holds: Sendable { case video, audio, picture }

    /// What `probe` calls it (`mp4`, `ts`).
    public let name: String
    /// FFmpeg's demuxer, by the first of its names (`mpegts`); nil for a member of a family
    /// FFmpeg reads with one demuxer and `probe` tells apart by brand or doctype (`mov` and `mp4`).
    public let demuxer: String?
    /// Its MIME type's subtype; the type is `video/` or `audio/` by what the file holds, unless
    /// `mimeType` says otherwise.
    public let mime: String
    public let extensions: Set<String>
    public let holds: Holds

    init(_ name: String, demuxer: String?, mime: String, _ extensions: Set<String>, _ holds: Holds) {
        self.name = name
        self.demuxer = demuxer
        self.mime = mime
        self.extensions = extensions
        self.holds = holds
    }

    /// The MIME type of a file of this format holding `video` or not.
    public func mimeType(holdingVideo video: Bool) -> String {
        mime.contains("/") ? mime : "\(holds == .picture ? "image" : video ? "video" : "audio")/\(mime)"
    }

    /// A name may come twice: its second row holds the extensions of the same format's sound-only
    /// files (`mka`, `ogg`), which `thumbnail` does not search for without `--cover`.
    public static let all: [MediaContainer] = [
        // The ISO family (one demuxer; told apart by brand).
        MediaContainer("mp4", demuxer: nil, mime: "mp4", ["mp4", "m4v"], .video),
        MediaContainer("mov", demuxer: nil, mime: "video/quicktime", ["mov"], .video),
        MediaContainer("3gp", demuxer: nil, mime: "3gpp", ["3gp"], .video),
        MediaContainer("3g2", demuxer: nil, mime: "3gpp2", [], .video),
        MediaContainer("m4a", demuxer: nil, mime: "audio/mp4", ["m4a"], .audio),
        // Matroska (one demuxer; told apart by doctype).
        MediaContainer("mkv", demuxer: nil, mime: "x-matroska", ["mkv"], .video),
        MediaContainer("mkv", demuxer: nil, mime: "x-matroska", ["mka"], .audio),
        MediaContainer("webm", demuxer: nil, mime: "webm", ["webm"], .video),
        MediaContainer("avi", demuxer: "avi", mime: "video/x-msvideo", ["avi"], .video),
        MediaContainer("ts", demuxer: "mpegts", mime: "video/mp2t", ["ts", "mts", "m2ts"], .video),
        MediaContainer("mpg", demuxer: "mpeg", mime: "video/mpeg", ["mpg", "mpeg"], .video),
        MediaContainer("flv", demuxer: "flv", mime: "video/x-flv", ["flv"], .video),
        MediaContainer("asf", demuxer: "asf", mime: "video/x-ms-asf", ["wmv"], .video),
        MediaContainer("ogg", demuxer: "ogg", mime: "ogg", ["ogv"], .video),
        MediaContainer("ogg", demuxer: nil, mime: "ogg", ["ogg", "opus"], .audio),
        // Raw streams: they state no duration, and their first frame is shown.
        MediaContainer("m2v", demuxer: "mpegvideo", mime: "video/mpeg", ["m2v"], .video),
        MediaContainer("h264", demuxer: "h264", mime: "video/h264", ["h264", "264"], .video),
        MediaContainer("hevc", demuxer: "hevc", mime: "video/h265", ["h265", "265", "hevc"], .video),
        MediaContainer("mp3", demuxer: "mp3", mime: "audio/mpeg", ["mp3"], .audio),
        MediaContainer("wav", demuxer: "wav", mime: "audio/wav", [], .audio),
        MediaContainer("flac", demuxer: "flac", mime: "audio/flac", ["flac"], .audio),
        MediaContainer("aac", demuxer: "aac", mime: "audio/aac", [], .audio),
        // Pictures FFmpeg reads (shown by their first frame).
        MediaContainer("gif", demuxer: "gif", mime: "image/gif", ["gif"], .picture),
        MediaContainer("png", demuxer: "apng", mime: "image/apng", [], .picture),
        MediaContainer("bmp", demuxer: "bmp_pipe", mime: "image/bmp", [], .picture),
        MediaContainer("ico", demuxer: "ico", mime: "image/vnd.microsoft.icon", [], .picture),
        MediaContainer("psd", demuxer: "psd_pipe", mime: "image/vnd.adobe.photoshop", [], .picture),
    ]

    /// The format FFmpeg's `demuxer` (its whole list of names, or the first) reads, where the table has it.
    public static func read(byDemuxer demuxer: String) -> MediaContainer? {
        let first = demuxer.split(separator: ",").first.map(String.init) ?? demuxer
        return all.first { $0.demuxer == first || $0.demuxer == demuxer }
    }

    /// The format `probe` calls `name` (its first row).
    public static func named(_ name: String) -> MediaContainer? { all.first { $0.name == name } }
}

/// The names a folder is searched for, from the format tables, by what a job reads.
public enum SearchedExtensions {
    /// Videos, their raw streams included.
    public static let videos = extensions(holding: .video)
    /// Sound: with `thumbnail --cover`, files whose artwork is shown; `probe` and `ingest` take them too.
    public static let audio = extensions(holding: .audio)
    /// Pictures: the picture codecs' and FFmpeg's.
    public static let pictures = PictureFormat.readableExtensions.union(extensions(holding: .picture))
    /// Everything mediatool reads.
    public static let media = videos.union(audio).union(pictures)

    private static func extensions(holding holds: MediaContainer.Holds) -> Set<String> {
        Set(MediaContainer.all.filter { $0.holds == holds }.flatMap(\.extensions))
    }
}
