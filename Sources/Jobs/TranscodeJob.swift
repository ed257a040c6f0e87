import Batch
import Failures
import Glibc
import FFmpeg
import FileIO
import JSON
import WebVideo

extension Transcoder {
    /// The web video as a job of the batch: one MP4 per video, written to its planned output
    /// (moved first in place, so the output is read back as well as written).
    public var job: FileJob {
        var job = FileJob(recognise: VideoSource.recognise, policy: options.output) { file, outputs, path in
            let made = try transcode(file, to: outputs.primary, target: path) { outputs.progress($0) }
            let result = TranscodeResult(width: made.width, height: made.height, frames: made.frames, seconds: made.seconds,
                                         sound: made.soundFrom.map { _ in "aac" }, soundFrom: made.soundFrom, bytes: made.bytes,
                                         fragmented: made.isFragmented, cutShort: made.isCutShort)
            return try JobReport(result, warnings: made.warnings)
        }
        job.writesInPlace = true
        job.progresses = true
        return job
    }
}

/// A web video's line: its size, frames, length, sound and bytes; the library reads it back.
public struct TranscodeResult: Codable, Sendable {
    public let width: Int
    public let height: Int
    public let frames: Int
    public let seconds: Double
    /// The sound's codec in the file, nil (written `null`) for a silent video.
    @Nullable public var sound: String?
    /// The source's sound codec it was made from.
    @Nullable public var soundFrom: String?
    public let bytes: Int
    /// Written as fragments (to a pipe), its `moov` first all the same.
    public let fragmented: Bool
    /// Ends well before the length its file states: what could be decoded (with a warning).
    public let cutShort: Bool

    private enum CodingKeys: String, CodingKey {
        case width, height, frames, seconds, sound, soundFrom = "sound_from", bytes, fragmented, cutShort = "cut_short"
    }
}

extension Transcoder {
    /// The HLS ladder as a job of the batch: the master playlist planned (CLIP.m3u8), each
    /// rendition's video and playlist beside it (CLIP.720p.mp4, CLIP.720p.m3u8) the only other
    /// outputs it may open. All appear together, the master last.
    public var ladderJob: FileJob {
        var job = FileJob(recognise: VideoSource.recognise, policy: options.output, allowsOutput: { planned, path, namedByUser, opened in
            !namedByUser && opened.count < HLSNames.mostFiles && HLSNames(master: planned[0].path).isRenditionFile(path)
        }) { file, outputs, master in
            let names = HLSNames(master: master)
            // Named as a rendition of another video's ladder (v.480p.mov's master v.480p.m3u8 is
            // v.mov's 480p playlist): one would replace the other.
            if HLSNames.master(ofRendition: master) != nil { throw HLSNameError.masterNamedAsARendition(master: master) }
            var videos: [(name: String, descriptor: Int32)] = []
            let ladder = try makeLadder(file, open: { rung in
                let path = names.video(rung)
                let descriptor = try outputs.open(path, namedByUser: false)
                videos.append((rung, descriptor))
                return (descriptor, path)
            }) { outputs.progress($0) }
            for (_, descriptor) in videos { try outputs.finish(descriptor) }
            for rendition in ladder.renditions {
                let path = names.playlist(rendition.name)
                let descriptor = try outputs.open(path, namedByUser: false)
                let text = HLSPlaylist.media(of: rendition, videoName: names.fileName(names.video(rendition.name)))
                try FileSystem.writeAll(Array(text.utf8), to: descriptor, target: path)
                try outputs.finish(descriptor)
            }
            let playlists = ladder.renditions.map { names.fileName(names.playlist($0.name)) }
            try FileSystem.writeAll(Array(HLSPlaylist.master(of: ladder, playlistNames: playlists).utf8), to: outputs.primary, target: master)
            let result = LadderResult(ladder: ladder, names: names)
            return try JobReport(result, warnings: ladder.warnings)
        }
        job.progresses = true
        return job
    }
}

/// An HLS ladder's line: the master playlist's renditions, largest first.
public struct LadderResult: Codable, Sendable {
    public struct Rendition: Codable, Sendable {
        public let name: String
        public let width: Int
        public let height: Int
        public let bytes: Int
        public let segments: Int
        /// The master playlist's BANDWIDTH: bits a second of its most demanding segment.
        public let bandwidth: Int
        public let codecs: String
        public let video: String
        public let playlist: String
    }
    public let frames: Int
    public let seconds: Double
    @Nullable public var sound: String?
    @Nullable public var soundFrom: String?
    public let cutShort: Bool
    public let renditions: [Rendition]

    private enum CodingKeys: String, CodingKey {
        case frames, seconds, sound, soundFrom = "sound_from", cutShort = "cut_short", renditions
    }

    init(ladder: HLSLadder, names: HLSNames) {
        frames = ladder.frames
        seconds = ladder.seconds
        sound = ladder.soundFrom.map { _ in "aac" }
        soundFrom = ladder.soundFrom
        cutShort = ladder.isCutShort
        renditions = ladder.renditions.map {
            Rendition(name: $0.name, width: $0.width, height: $0.height, bytes: $0.bytes, segments: $0.segments.count,
                      bandwidth: $0.peakBitsPerSecond, codecs: $0.codecs, video: names.video($0.name), playlist: names.playlist($0.name))
        }
    }
}
