import FileIO

/// What a movie's timed-metadata tracks say, read where it lies: a Live Photo's still-image time
/// (the item `com.apple.quicktime.still-image-time`, in the sample presented with the frame that
/// matches the still), and a position written as the camera moves (`...location.ISO6709`).
public enum TimedMetadata {
    public static let stillImageTimeKey = "com.apple.quicktime.still-image-time"
    public static let locationKey = "com.apple.quicktime.location.ISO6709"
    /// Top-level boxes walked at most before the movie's header.
    static let mostBoxes = 10_000
    /// Samples of a track read at most: an item is in the first samples that have any.
    static let mostSamplesRead = 16
    /// The longest item value read (an ISO 6709 position is some 30 bytes).
    static let longestValue = 4096

    /// Seconds from the movie's start; nil where the file is no movie or names no such time.
    public static func stillImageTime(in file: InputFile) -> Double? {
        guard let (_, seconds) = firstItem(ofKey: stillImageTimeKey, in: file) else { return nil }
        return seconds.isFinite && seconds >= 0 ? seconds : nil
    }

    /// The first position a timed-metadata track holds, as its ISO 6709 text.
    public static func firstPosition(in file: InputFile) -> String? {
        firstItem(ofKey: locationKey, in: file).map { String(decoding: $0.value.prefix { $0 != 0 }, as: UTF8.self) }
    }

    /// The value and time of the first item of `key` in the file's timed-metadata tracks.
    private static func firstItem(ofKey wanted: String, in file: InputFile) -> (value: [UInt8], seconds: Double)? {
        guard let bytes = try? FileBytes(file) else { return nil }
        var index = 0
        for _ in 0..<mostBoxes {
            guard let head = try? bytes.peek(at: index, count: 16),
                  let box = MovieBox.at(0, in: head, limit: bytes.size - index) else { return nil }
            if box.type == "moov" {
                guard let movie = try? bytes.read(index..<(index + box.end), what: "the moov box") else { return nil }
                let tracks = TimedMetadataTrack.tracks(in: movie, movie: box) { $0.values.contains(wanted) }
                return firstItem(ofKey: wanted, in: tracks, bytes: bytes)
            }
            index += box.end
        }
        return nil
    }

    private static func firstItem(ofKey wanted: String, in tracks: [TimedMetadataTrack], bytes: FileBytes) -> (value: [UInt8], seconds: Double)? {
        for track in tracks {
            guard let key = track.keys.first(where: { $0.value == wanted })?.key else { continue }
            let timed = zip(track.samples ?? [], track.times).lazy.filter { !$0.0.isEmpty }
            for (range, seconds) in timed.prefix(mostSamplesRead) {
                guard let data = try? bytes.read(range, what: "a timed-metadata sample") else { break }
                if let item = TimedMetadataTrack.items(of: data).first(where: { $0.key == key }) {
                    return (Array(data[item.value].prefix(longestValue)), seconds)
                }
            }
        }
        return nil
    }
}
