import Batch
import FFmpeg
import FileIO
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
    public let sound: String?
    /// The source's sound codec it was made from.
    public let soundFrom: String?
    public let bytes: Int
    /// Written as fragments (to a pipe), its `moov` first all the same.
    public let fragmented: Bool
    /// Ends well before the length its file states: what could be decoded (with a warning).
    public let cutShort: Bool

    private enum CodingKeys: String, CodingKey {
        case width, height, frames, seconds, sound, soundFrom = "sound_from", bytes, fragmented, cutShort = "cut_short"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(width, forKey: .width)
        try container.encode(height, forKey: .height)
        try container.encode(frames, forKey: .frames)
        try container.encode(seconds, forKey: .seconds)
        try container.encode(sound, forKey: .sound)
        try container.encode(soundFrom, forKey: .soundFrom)
        try container.encode(bytes, forKey: .bytes)
        try container.encode(fragmented, forKey: .fragmented)
        try container.encode(cutShort, forKey: .cutShort)
    }
}
