import Imaging

/// What QuickTime and MP4 metadata (as FFmpeg gives it: `creation_time` from `mvhd`, `location`
/// from `udta/©xyz`, and the `mdta` keys an iPhone writes) and Matroska tags say of a capture.
enum QuickTimeMetadata {
    static func capture(_ tags: [String: String]) -> CaptureMetadata {
        var capture = CaptureMetadata()
        capture.created = tags["com.apple.quicktime.creationdate"].flatMap(isoDate) ?? tags["creation_time"].flatMap(isoDate)
        capture.make = (tags["com.apple.quicktime.make"] ?? tags["make"] ?? tags["com.android.manufacturer"]).flatMap(nonEmpty)
        capture.model = (tags["com.apple.quicktime.model"] ?? tags["model"] ?? tags["com.android.model"]).flatMap(nonEmpty)
        capture.software = (tags["com.apple.quicktime.software"] ?? tags["software"] ?? tags["com.android.version"]).flatMap(nonEmpty)
        capture.position = (tags["com.apple.quicktime.location.iso6709"] ?? tags["location"]).flatMap(ISO6709.position)
        capture.contentIdentifier = tags["com.apple.quicktime.content.identifier"].flatMap(nonEmpty)
        return capture
    }

    private static func nonEmpty(_ text: String) -> String? {
        let trimmed = text.trimmingSpaces
        return trimmed.isEmpty ? nil : trimmed
    }

    /// `2019-12-20T16:08:32.000000Z` as `2019-12-20T16:08:32Z`, `2023-05-01T12:34:56+0200` as
    /// `2023-05-01T12:34:56+02:00`; a fraction kept when it is not zero. nil for anything else.
    static func isoDate(_ text: String) -> String? {
        let characters = Array(text.utf8)
        guard characters.count >= 19 else { return nil }
        let digitPlaces = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18]
        guard digitPlaces.allSatisfy({ (0x30...0x39).contains(characters[$0]) }), characters[4] == 0x2D, characters[7] == 0x2D,
              characters[10] == 0x54 || characters[10] == 0x20, characters[13] == 0x3A, characters[16] == 0x3A else { return nil }
        var date = String(decoding: characters[0..<10], as: UTF8.self) + "T" + String(decoding: characters[11..<19], as: UTF8.self)
        // QuickTime's zero time, and the Unix epoch some muxers write for it: no date.
        guard !date.hasPrefix("0000"), !date.hasPrefix("1904-01-01"), date != "1970-01-01T00:00:00",
              CaptureMetadata.isValidDateTime(date) else { return nil }
        var rest = characters[19...]
        if rest.first == 0x2E {
            let fraction = rest.dropFirst().prefix { (0x30...0x39).contains($0) }
            rest = rest.dropFirst(1 + fraction.count)
            // To the nanosecond, without trailing zeros (none at all for a whole second).
            let kept = fraction.prefix(9).reversed().drop { $0 == 0x30 }.reversed()
            if !kept.isEmpty { date += "." + String(decoding: kept, as: UTF8.self) }
        }
        let zone = String(decoding: rest, as: UTF8.self)
        if zone == "Z" { return date + "Z" }
        if zone.isEmpty { return date }
        // An offset that is none leaves the date local, as EXIF's does.
        return date + (ExifBlock.isoOffset(zone) ?? "")
    }
}

/// ISO 6709 positions as QuickTime writes them: `+35.6586+139.7454+040.000/`, degrees with a
/// fraction, or degrees and minutes (`+3535.5+13944.7/`) and seconds, by the digits before the point.
enum ISO6709 {
    static func position(_ text: String) -> GeoPosition? {
        var parts: [String] = []
        for character in text {
            if character == "+" || character == "-" {
                parts.append(String(character))
            } else if character == "/" || character == "C" {
                break
            } else if character.isNumber || character == ".", !parts.isEmpty {
                parts[parts.count - 1].append(character)
            } else {
                return nil
            }
        }
        guard parts.count >= 2, let latitude = angle(parts[0], degreeDigits: 2), let longitude = angle(parts[1], degreeDigits: 3) else { return nil }
        let altitude = parts.count >= 3 ? Double(parts[2]) : nil
        return GeoPosition(latitude: latitude, longitude: longitude, altitude: altitude)
    }

    /// `±DD.D`, `±DDMM.M` or `±DDMMSS.S` (three degree digits for a longitude); degrees written
    /// with fewer digits (`+5.5+10.5/`, no zero padding) are degrees, as ExifTool reads them.
    private static func angle(_ part: String, degreeDigits: Int) -> Double? {
        let sign: Double = part.hasPrefix("-") ? -1 : 1
        let digits = part.dropFirst()
        let whole = digits.prefix { $0 != "." }
        guard !whole.isEmpty, whole.allSatisfy(\.isNumber), let value = Double(digits) else { return nil }
        switch whole.count - degreeDigits {
        case ...0: return sign * value
        case 2:
            let degrees = Double(whole.prefix(degreeDigits))!, minutes = value - degrees * 100
            guard minutes < 60 else { return nil }
            return sign * (degrees + minutes / 60)
        case 4:
            let degrees = Double(whole.prefix(degreeDigits))!, minutes = Double(whole.dropFirst(degreeDigits).prefix(2))!
            let seconds = value - degrees * 10000 - minutes * 100
            guard minutes < 60, seconds < 60 else { return nil }
            return sign * (degrees + minutes / 60 + seconds / 3600)
        default: return nil
        }
    }
}
