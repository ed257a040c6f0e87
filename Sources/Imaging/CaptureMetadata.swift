/// When, where and with what a photo or video was taken, as its metadata says (EXIF, QuickTime).
public struct CaptureMetadata: Sendable, Equatable {
    /// ISO 8601, with the offset from UTC where the file states one (`2024-05-01T12:34:56+02:00`,
    /// `2024-05-01T10:34:56Z`), local time without one.
    public var created: String?
    public var make: String?
    public var model: String?
    public var software: String?
    public var position: GeoPosition?
    /// An iPhone Live Photo's pairing: the UUID its still (Apple's maker note, tag 0x0011) and its
    /// video (`com.apple.quicktime.content.identifier`) share.
    public var contentIdentifier: String?

    public init(created: String? = nil, make: String? = nil, model: String? = nil, software: String? = nil, position: GeoPosition? = nil,
                contentIdentifier: String? = nil) {
        self.created = created
        self.make = make
        self.model = model
        self.software = software
        self.position = position
        self.contentIdentifier = contentIdentifier
    }
}

extension CaptureMetadata {
    /// Whether `text`, `YYYY-MM-DDTHH:MM:SS`, is a time that exists: a month of 1 to 12, a day of
    /// that month (29 February in leap years), hours to 23, minutes to 59, seconds to 60 (a leap second).
    public static func isValidDateTime(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 19 else { return false }
        let number = { (from: Int, to: Int) -> Int? in Int(String(decoding: bytes[from..<to], as: UTF8.self)) }
        guard let year = number(0, 4), let month = number(5, 7), let day = number(8, 10),
              let hour = number(11, 13), let minute = number(14, 16), let second = number(17, 19),
              year >= 1, (1...12).contains(month), hour < 24, minute < 60, second <= 60 else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        return (1...days).contains(day)
    }
}

/// A point on the earth: degrees north and east, metres above sea level.
public struct GeoPosition: Sendable, Equatable {
    public var latitude: Double
    public var longitude: Double
    public var altitude: Double?

    /// nil for a point off the earth (a latitude past 90 degrees, values that are not numbers).
    public init?(latitude: Double, longitude: Double, altitude: Double?) {
        guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180 else { return nil }
        // -0 is 0: on the equator or the meridian there is no side.
        self.latitude = latitude + 0
        self.longitude = longitude + 0
        self.altitude = altitude.flatMap { $0.isFinite ? $0 : nil }
    }
}
