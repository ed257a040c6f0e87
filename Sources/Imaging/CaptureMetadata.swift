/// When, where and with what a photo or video was taken, as its metadata says (EXIF, QuickTime).
public struct CaptureMetadata: Sendable, Equatable {
    /// ISO 8601, with the offset from UTC where the file states one (`2024-05-01T12:34:56+02:00`,
    /// `2024-05-01T10:34:56Z`), local time without one.
    public var created: String?
    public var make: String?
    public var model: String?
    public var software: String?
    public var position: GeoPosition?

    public init(created: String? = nil, make: String? = nil, model: String? = nil, software: String? = nil, position: GeoPosition? = nil) {
        self.created = created
        self.make = make
        self.model = model
        self.software = software
        self.position = position
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
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude.flatMap { $0.isFinite ? $0 : nil }
    }
}
