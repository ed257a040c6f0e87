/// What EXIF says of when, where and with what a picture was taken, and of its embedded thumbnail.
/// Every value is read through the block's checked offsets: a hostile block gives nil, never a crash.
extension ExifBlock {
    static let makeTag = 0x010F, modelTag = 0x0110, softwareTag = 0x0131
    static let dateTimeOriginalTag = 0x9003, dateTimeDigitizedTag = 0x9004
    static let offsetTimeOriginalTag = 0x9011, offsetTimeDigitizedTag = 0x9012
    static let subSecTimeOriginalTag = 0x9291, subSecTimeDigitizedTag = 0x9292

    /// The capture's date (DateTimeOriginal, else DateTimeDigitized, with their sub-seconds and
    /// offsets), camera, software and GPS position.
    public var capture: CaptureMetadata {
        let ifd0 = firstDirectory
        let exif = pointer(Self.exifPointerTag)
        // Some writers put the Exif directory's tags in IFD0 itself (TIFFs from scanners and libtiff).
        let value = { (tag: Int) in self.text(tag, in: exif) ?? self.text(tag, in: ifd0) }
        let created = Self.isoDate(value(Self.dateTimeOriginalTag), subSeconds: value(Self.subSecTimeOriginalTag),
                                   offset: value(Self.offsetTimeOriginalTag))
            ?? Self.isoDate(value(Self.dateTimeDigitizedTag), subSeconds: value(Self.subSecTimeDigitizedTag),
                            offset: value(Self.offsetTimeDigitizedTag))
        return CaptureMetadata(created: created, make: text(Self.makeTag, in: ifd0), model: text(Self.modelTag, in: ifd0),
                               software: text(Self.softwareTag, in: ifd0), position: position, contentIdentifier: appleContentIdentifier)
    }

    /// Apple's maker note's ContentIdentifier (tag 0x0011, ASCII): "Apple iOS\0", a version, "MM",
    /// then a directory whose offsets count from the note's start.
    var appleContentIdentifier: String? {
        guard let exif = pointer(Self.exifPointerTag), let entry = entry(0x927C, in: exif), let (start, length) = outOfLineValue(entry),
              length >= 16, bytes[start..<(start + 9)].elementsEqual("Apple iOS".utf8),
              bytes[(start + 12)..<(start + 14)].elementsEqual("MM".utf8) else { return nil }
        let note = Array(bytes[start..<(start + length)])
        let read = { (at: Int, count: Int) -> Int? in
            at >= 0 && at + count <= note.count ? note[at..<(at + count)].reduce(0) { $0 << 8 | Int($1) } : nil
        }
        guard let count = read(14, 2) else { return nil }
        for index in 0..<min(count, 256) {
            let at = 16 + index * 12
            guard let tag = read(at, 2), let type = read(at + 2, 2), let size = read(at + 4, 4) else { return nil }
            guard tag == 0x0011, type == 2, size > 1, size <= 256 else { continue }
            let value = size <= 4 ? at + 8 : read(at + 8, 4) ?? -1
            guard value >= 0, value + size <= note.count else { return nil }
            let text = String(decoding: note[value..<(value + size)].prefix { $0 != 0 }, as: UTF8.self)
            return text.isEmpty ? nil : text
        }
        return nil
    }

    /// The GPS directory's latitude and longitude (degrees, minutes and seconds, and their
    /// hemispheres) and altitude (below sea level when its reference byte is 1).
    var position: GeoPosition? {
        guard let gps = pointer(Self.gpsPointerTag),
              let latitude = degrees(2, in: gps), let longitude = degrees(4, in: gps) else { return nil }
        let north = text(1, in: gps)?.uppercased() != "S", east = text(3, in: gps)?.uppercased() != "W"
        var altitude = rationals(6, in: gps)?.first
        if let entry = entry(5, in: gps), read16(entry + 2) == 1, bytes[entry + 8] == 1 { altitude = altitude.map { -$0 } }
        // The hemisphere says the sign (a signed rational's own is taken as exiftool takes it: magnitude only).
        return GeoPosition(latitude: north ? abs(latitude) : -abs(latitude), longitude: east ? abs(longitude) : -abs(longitude), altitude: altitude)
    }

    private func degrees(_ tag: Int, in directory: Int) -> Double? {
        guard let parts = rationals(tag, in: directory), !parts.isEmpty else { return nil }
        return parts.prefix(3).enumerated().reduce(0) { sum, part in sum + part.element / [1, 60, 3600][part.offset] }
    }

    /// The embedded thumbnail's size, from the frame header of the JPEG that IFD1 points to.
    public var thumbnailSize: (width: Int, height: Int)? {
        thumbnailRange.flatMap { Self.jpegFrameSize(bytes[$0]) }
    }

    /// Where the embedded thumbnail (IFD1's JPEG) lies in the block.
    public var thumbnailRange: Range<Int>? {
        guard let ifd0 = firstDirectory, let count = entries(of: ifd0), let ifd1 = read32(ifd0 + 2 + count * 12), ifd1 != 0,
              entries(of: ifd1) != nil,
              let start = entry(Self.thumbnailOffsetTag, in: ifd1).flatMap({ read32($0 + 8) }),
              let length = entry(Self.thumbnailLengthTag, in: ifd1).flatMap({ read32($0 + 8) }),
              start + length <= bytes.count else { return nil }
        return start..<(start + length)
    }

    /// The size a JPEG's first frame header (SOF0 to SOF15) states.
    static func jpegFrameSize(_ jpeg: ArraySlice<UInt8>) -> (width: Int, height: Int)? {
        var offset = jpeg.startIndex + 2
        guard jpeg.count >= 4, jpeg[jpeg.startIndex] == 0xFF, jpeg[jpeg.startIndex + 1] == 0xD8 else { return nil }
        while offset + 4 <= jpeg.endIndex {
            guard jpeg[offset] == 0xFF else { return nil }
            let marker = jpeg[offset + 1]
            let length = Int(jpeg[offset + 2]) << 8 | Int(jpeg[offset + 3])
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard offset + 9 <= jpeg.endIndex else { return nil }
                let height = Int(jpeg[offset + 5]) << 8 | Int(jpeg[offset + 6]), width = Int(jpeg[offset + 7]) << 8 | Int(jpeg[offset + 8])
                return width > 0 && height > 0 ? (width, height) : nil
            }
            guard length >= 2 else { return nil }
            offset += 2 + length
        }
        return nil
    }

    /// An ASCII entry's text, without its NULs and the spaces cameras pad with; nil when empty.
    func text(_ tag: Int, in directory: Int?) -> String? {
        guard let entry = entry(tag, in: directory), let type = read16(entry + 2), type == 2 || type == 7,
              let count = read32(entry + 4), count > 0, count <= 65536 else { return nil }
        let start: Int
        if count <= 4 {
            start = entry + 8
        } else {
            guard let offset = read32(entry + 8), offset + count <= bytes.count else { return nil }
            start = offset
        }
        let raw = bytes[start..<(start + count)].prefix { $0 != 0 }
        let text = String(decoding: raw, as: UTF8.self).trimmingSpaces
        return text.isEmpty ? nil : text
    }

    /// A RATIONAL or SRATIONAL entry's values; nil where one has a zero denominator.
    func rationals(_ tag: Int, in directory: Int?) -> [Double]? {
        guard let entry = entry(tag, in: directory), let type = read16(entry + 2), type == 5 || type == 10,
              let count = read32(entry + 4), count > 0, count <= 16,
              let offset = read32(entry + 8), offset + count * 8 <= bytes.count else { return nil }
        var values: [Double] = []
        for index in 0..<count {
            guard var numerator = read32(offset + index * 8), var denominator = read32(offset + index * 8 + 4) else { return nil }
            if type == 10 {
                numerator = Int(Int32(truncatingIfNeeded: numerator))
                denominator = Int(Int32(truncatingIfNeeded: denominator))
            }
            guard denominator != 0 else { return nil }
            values.append(Double(numerator) / Double(denominator))
        }
        return values
    }

    /// `2024:05:01 12:34:56` with sub-seconds `123` and offset `+02:00` as `2024-05-01T12:34:56.123+02:00`;
    /// nil for a date that is not one (blank, zeroes, other shapes).
    static func isoDate(_ text: String?, subSeconds: String?, offset: String?) -> String? {
        guard let text else { return nil }
        let characters = Array(text.utf8)
        guard characters.count >= 19 else { return nil }
        let digitPlaces = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18]
        guard digitPlaces.allSatisfy({ (0x30...0x39).contains(characters[$0]) }),
              characters[4] == 0x3A, characters[7] == 0x3A, characters[10] == 0x20 || characters[10] == 0x54,
              characters[13] == 0x3A, characters[16] == 0x3A else { return nil }
        let part = { (from: Int, to: Int) in String(decoding: characters[from..<to], as: UTF8.self) }
        var date = "\(part(0, 4))-\(part(5, 7))-\(part(8, 10))T\(part(11, 19))"
        guard CaptureMetadata.isValidDateTime(date) else { return nil }
        // Sub-seconds to the nanosecond, as ISO 8601 readers take them.
        if let subSeconds, !subSeconds.isEmpty, subSeconds.utf8.allSatisfy({ (0x30...0x39).contains($0) }) { date += "." + subSeconds.prefix(9) }
        if let offset, let zone = isoOffset(offset) { date += zone }
        return date
    }

    /// `+02:00` or `-0530` as `+02:00`, `-05:30`; nil for anything else.
    public static func isoOffset(_ text: String) -> String? {
        let characters = Array(text.utf8)
        guard let sign = characters.first, sign == 0x2B || sign == 0x2D else { return nil }
        let digits = characters.dropFirst().filter { $0 != 0x3A }
        guard digits.count == 4, digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        let hours = Int(String(decoding: digits.prefix(2), as: UTF8.self))!, minutes = Int(String(decoding: digits.suffix(2), as: UTF8.self))!
        guard hours <= 14, minutes < 60 else { return nil }
        return "\(sign == 0x2B ? "+" : "-")\(String(decoding: digits.prefix(2), as: UTF8.self)):\(String(decoding: digits.suffix(2), as: UTF8.self))"
    }
}

extension String {
    /// Without the spaces before and after.
    public var trimmingSpaces: String {
        var scalars = Substring(self)
        while scalars.last == " " { scalars.removeLast() }
        while scalars.first == " " { scalars.removeFirst() }
        return String(scalars)
    }
}
