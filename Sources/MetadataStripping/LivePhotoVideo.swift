import FileIO

/// A Live Photo's video: the time of the frame that matches its still, which the iPhone writes as
/// the item `com.apple.quicktime.still-image-time` of a timed-metadata track, at that time.
public enum LivePhotoVideo {
    public static let stillImageTimeKey = "com.apple.quicktime.still-image-time"
    /// Top-level boxes walked at most before the movie's header.
    static let mostBoxes = 10_000
    /// Samples of the track read at most: the item is in its first sample that has any.
    static let mostSamplesRead = 16

    /// Seconds from the movie's start; nil where the file is no movie or names no such time.
    public static func stillImageTime(in file: InputFile) -> Double? {
        guard let bytes = try? FileBytes(file) else { return nil }
        var index = 0
        for _ in 0..<mostBoxes {
            guard let head = try? bytes.peek(at: index, count: 16),
                  let box = MovieBox.at(0, in: head, limit: bytes.size - index) else { return nil }
            if box.type == "moov" {
                guard let movie = try? bytes.read(index..<(index + box.end), what: "the moov box") else { return nil }
                return stillImageTime(in: TimedMetadataTrack.tracks(in: movie, movie: box), bytes: bytes)
            }
            index += box.end
        }
        return nil
    }

    private static func stillImageTime(in tracks: [TimedMetadataTrack], bytes: FileBytes) -> Double? {
        for track in tracks {
            guard let key = track.keys.first(where: { $0.value == stillImageTimeKey })?.key else { continue }
            let timed = zip(track.samples ?? [], track.times).lazy.filter { !$0.0.isEmpty }
            for (range, seconds) in timed.prefix(mostSamplesRead) {
                guard let data = try? bytes.read(range, what: "a timed-metadata sample") else { break }
                if TimedMetadataTrack.items(of: data).contains(where: { $0.key == key }) {
                    return seconds.isFinite && seconds >= 0 ? seconds : nil
                }
            }
        }
        return nil
    }
}
