import FileIO
import MediaProbe

/// Whether browsers play an upload as it is: H.264 (8-bit 4:2:0, progressive) in MP4 with AAC
/// sound or none, SDR, no rotation left for the player, at most 1080 on its shorter side, its
/// `moov` before its media data (else nothing plays until the whole file has come). What ingest
/// makes a web video of is what fails one of these.
enum WebPlayability {
    /// What keeps browsers from playing it as it is; empty where they play it.
    /// `cutShort`: the probe found frames its index lists past the file's end.
    /// `firstFrameInterlaced`: asked only where nothing else decides and the header does not say
    /// (H.264 in MP4 is interlaced in its frames only): whether the first frame is coded as
    /// fields, nil where it does not decode.
    static func reasons(_ probe: ProbeResult, movieFirst: Bool?, cutShort: Bool = false,
                        firstFrameInterlaced: () -> Bool? = { false }) -> [String] {
        var reasons: [String] = []
        if probe.format != "mp4" { reasons.append("a \(probe.format) file, not an MP4") }
        if probe.codec != "h264" { reasons.append("\(probe.codec ?? "unknown") video, not H.264") }
        if probe.codec == "h264", let profile = probe.profile, !playedProfiles.contains(profile) { reasons.append("H.264's \(profile) profile") }
        if let depth = probe.bitDepth, depth != 8 { reasons.append("\(depth)-bit video") }
        if let format = probe.pixelFormat, !["yuv420p", "yuvj420p"].contains(format) { reasons.append("\(format) pixels, not 4:2:0") }
        if probe.interlaced == true { reasons.append("interlaced") }
        if let hdr = probe.hdr { reasons.append("HDR (\(hdr))") }
        if let rotation = probe.rotation, rotation != 0 { reasons.append("stored rotated by \(rotation) degrees") }
        if let width = probe.width, let height = probe.height, min(width, height) > largestShorterSide {
            reasons.append("\(width)x\(height), over \(largestShorterSide)p")
        }
        for sound in probe.audio ?? [] where sound.codec != "aac" { reasons.append("\(sound.codec) sound, not AAC") }
        if cutShort { reasons.append("cut short: frames its index lists lie past its end") }
        if probe.format == "mp4", movieFirst != true {
            reasons.append(movieFirst == false ? "its index (moov) after its media data" : "no index (moov) found before its media data")
        }
        if reasons.isEmpty, probe.interlaced == nil {
            switch firstFrameInterlaced() {
            case true?: reasons.append("interlaced")
            case nil: reasons.append("its first frame does not decode")
            case false?: break
            }
        }
        return reasons
    }

    /// The H.264 profiles every browser decodes (High 10 and 4:4:4 few or none).
    static let playedProfiles: Set<String> = ["Constrained Baseline", "Baseline", "Main", "High"]

    /// 1080p, portrait or landscape.
    static let largestShorterSide = 1080

    /// The most top-level boxes read looking for the `moov` or the media data: an MP4 has a few
    /// (`ftyp`, `free`, `wide`...) before them; a file of thousands of tiny boxes is not asked for more.
    static let mostBoxesBeforeMovie = 64

    /// Whether the file's `moov` comes before its `mdat`, from its top-level boxes; nil where
    /// neither is found among the first `mostBoxesBeforeMovie` or the file cannot be read at will.
    static func movieComesFirst(in file: InputFile) -> Bool? {
        guard file.isRegular, let size = file.size else { return nil }
        var offset = 0
        var header = [UInt8](repeating: 0, count: 16)
        for _ in 0..<mostBoxesBeforeMovie {
            guard offset + 8 <= size,
                  let read = try? header.withUnsafeMutableBytes({ try file.read(at: offset, into: $0) }), read >= 8 else { return nil }
            var boxSize = header[0..<4].reduce(0) { $0 << 8 | Int($1) }
            if boxSize == 1 {
                guard read == 16 else { return nil }
                boxSize = header[8..<16].reduce(0) { $0 << 8 | Int($1) }
            }
            // A box to the end (size 0), or one that claims less than its header or more than the
            // file (a `moov` that says it runs past the end, which strict players wait for).
            guard boxSize >= 8, boxSize <= size - offset else { return nil }
            switch String(decoding: header[4..<8], as: UTF8.self) {
            case "moov": return true
            case "mdat": return false
            default: offset += boxSize
            }
        }
        return nil
    }
}
