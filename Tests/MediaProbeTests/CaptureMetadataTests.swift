import Imaging
import Testing
@testable import MediaProbe

/// What probe makes of the dates and places that QuickTime tags and EXIF state, hostile ones included.
@Suite struct CaptureMetadataTests {
    @Test(arguments: [
        ("2023-05-01T12:34:56+0200", "2023-05-01T12:34:56+02:00"),   // an iPhone's creationdate
        ("2019-12-20T16:08:32.000000Z", "2019-12-20T16:08:32Z"),      // FFmpeg's creation_time
        ("2019-12-20T16:08:32.250000Z", "2019-12-20T16:08:32.25Z"),
        ("2023-05-01T12:34:56.000000000000000000000000000001Z", "2023-05-01T12:34:56Z"),
        ("2023-05-01T12:34:56+99:99", "2023-05-01T12:34:56"),           // an offset that is none: local time
        ("2024-02-29T00:00:00Z", "2024-02-29T00:00:00Z"),
    ])
    func quickTimeDates(text: String, expected: String) {
        #expect(QuickTimeMetadata.isoDate(text) == expected)
    }

    @Test(arguments: ["2023-99-99T99:99:99Z", "0001-00-00T00:00:00Z", "2023-02-29T00:00:00Z", "2023-04-31T10:00:00Z",
                      "2023-05-01T24:00:00Z", "1904-01-01T00:00:00Z", "1970-01-01T00:00:00.000000Z", "0000-00-00T00:00:00Z",
                      "2023-05-01", "yesterday"])
    func quickTimeDatesThatAreNone(text: String) {
        #expect(QuickTimeMetadata.isoDate(text) == nil)
    }

    @Test func quickTimeTagsGiveTheCapture() {
        let capture = QuickTimeMetadata.capture([
            "com.apple.quicktime.creationdate": "2024-05-01T12:34:56+0200", "creation_time": "2024-05-01T10:34:56.000000Z",
            "com.apple.quicktime.location.iso6709": "+48.8583+002.2945+035.000/", "com.apple.quicktime.make": "Apple",
            "com.apple.quicktime.model": "iPhone 15 Pro ",
        ])
        #expect(capture.created == "2024-05-01T12:34:56+02:00")
        #expect(capture.make == "Apple" && capture.model == "iPhone 15 Pro")
        #expect(capture.position == GeoPosition(latitude: 48.8583, longitude: 2.2945, altitude: 35))
    }

    @Test(arguments: [
        ("+35.6586+139.7454+040.000/", 35.6586, 139.7454, 40.0),
        ("-33.8568+151.2153/", -33.8568, 151.2153, nil),
        ("+3535.5-13944.7/", 35 + 35.5 / 60, -(139 + 44.7 / 60), nil),        // degrees and minutes
        ("+353530.0+1394430.0/", 35 + 35.0 / 60 + 30.0 / 3600, 139 + 44.0 / 60 + 30.0 / 3600, nil),
        ("+00.0000-000.0000/", 0.0, 0.0, nil),
        // Degrees without zero padding, as ExifTool reads them.
        ("+5.5+10.5/", 5.5, 10.5, nil),
        ("-5-7.25+12/", -5.0, -7.25, 12.0),
    ] as [(String, Double, Double, Double?)])
    func iso6709(text: String, latitude: Double, longitude: Double, altitude: Double?) throws {
        let position = try #require(ISO6709.position(text))
        #expect(abs(position.latitude - latitude) < 1e-9 && abs(position.longitude - longitude) < 1e-9)
        #expect(position.altitude == altitude)
        #expect(position.latitude.sign == .plus || position.latitude != 0)
    }

    @Test(arguments: ["+3599.9+13999.9/", "+355990.0+1395990.0/", "+95.0+10.0/", "+45.0+190.0/", "+45.0/", "45.0+10.0/",
                      "+45.0+1x.0/", "", "+1234567.0+10.0/"])
    func iso6709ThatIsNoPlace(text: String) {
        #expect(ISO6709.position(text) == nil)
    }
}
