import ImageCodecs
import Testing
import TestSupport

/// `PictureFormat.identify`: every picture format told by its signature, whatever its name.
@Suite struct SignatureTests {
    static func kind(_ relative: String) throws -> PictureFormat.Name? {
        PictureFormat.identify(Array(try RepositoryFixtures.bytes(relative).prefix(12)))?.name
    }

    @Test func everyFixtureKind() throws {
        let expected: [(String, PictureFormat.Name?)] = [
            ("pictures/rgb8.png", .png), ("pictures/gray16.png", .png), ("pictures/camera.jpg", .jpeg), ("pictures/progressive6.jpg", .jpeg),
            ("heif/orientation1.heic", .heif), ("heif/grid6.heic", .heif), ("heif/orientation1.avif", .avif), ("heif/alpha-limited.avif", .avif),
            ("webp/lossy.webp", .webp), ("webp/animated.webp", .webp), ("tiff/strips-none.tif", .tiff), ("tiff/orientation1.tif", .tiff),
            // The name says one thing, the bytes another: the bytes win.
            ("bad/jpeg-wrong-extension.png", .jpeg), ("bad/mp4-named-as-picture.jpg", nil),
            ("pictures/not-a-picture.png", nil), ("pictures/empty.jpg", nil), ("video/counter.mp4", nil), ("doubles/known.txt", nil),
        ]
        for (relative, kind) in expected {
            #expect(try Self.kind(relative) == kind, "\(relative)")
        }
    }

    @Test func bigEndianTIFFAndEveryHEIFBrand() {
        #expect(PictureFormat.identify([0x4D, 0x4D, 0, 42, 0, 0, 0, 8])?.name == .tiff)
        // AVIF is told by its major brand; an AV1 picture under another HEIF brand reads as HEIF, by the same reader.
        for brand in ["heic", "heix", "mif1", "msf1", "avif", "avis"] {
            #expect(PictureFormat.identify([0, 0, 0, 24] + Array("ftyp\(brand)".utf8))?.name == (brand.hasPrefix("avi") ? .avif : .heif), "\(brand)")
        }
        #expect(PictureFormat.identify([0, 0, 0, 24] + Array("ftypisom".utf8)) == nil)
        #expect(PictureFormat.identify([0xFF, 0xD8]) == nil)
    }
}

/// The format list: every format's extensions name it, written formats' extensions round-trip.
@Suite struct PictureFormatListTests {
    @Test func everyExtensionNamesOneFormat() {
        let all = PictureFormat.all.flatMap(\.extensions)
        #expect(Set(all).count == all.count)
        #expect(PictureFormat.readableExtensions == Set(["png", "jpg", "jpeg", "jpe", "jfif", "webp", "heic", "heif", "hif", "avif", "tif", "tiff"]))
    }

    @Test func writtenFormatsComeFromTheList() {
        #expect(ImageFormat.allCases.map(\.fileExtension) == ["png", "jpg", "webp", "avif"])
        // AVIF is written; HEIC is only read, and a name ending .heic is never given AVIF's bytes.
        #expect(ImageFormat(fileExtension: "JPE") == .jpeg && ImageFormat(fileExtension: "heic") == nil && ImageFormat(fileExtension: "AVIF") == .avif)
        #expect(ImageFormat.supportedList == "png, jpeg (.jpg, .jpeg, .jpe, .jfif), webp, avif")
        #expect(ImageFormat.webp.largestSide == 16383 && ImageFormat.jpeg.largestSide == 65500)
    }
}
