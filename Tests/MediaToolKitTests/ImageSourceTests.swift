import Foundation
import MediaToolKit
import Testing
import TestSupport

@Suite struct ImageSourceTests {
    /// The upright picture's pixels in a rect.
    static func uprightRect(x: Int, y: Int, width: Int, height: Int) -> [UInt8] {
        RepositoryFixtures.rect(of: KitFixtures.upright, pictureWidth: KitFixtures.uprightWidth, bytesPerPixel: 3,
                                x: x, y: y, width: width, height: height)
    }

    @Test(arguments: 1...8)
    func everyOrientationShowsTheUprightPicture(orientation: Int) async throws {
        let source = try await ImageSource(KitFixtures.source("pictures/orientation\(orientation).png"))
        #expect((source.width, source.height) == (61, 41))
        #expect(source.orientation.rawValue == orientation)
        #expect(source.swapsSize == (orientation >= 5))
        let whole = try await source.image()
        #expect(whole.pixels == KitFixtures.upright)
        let crop = try await source.cropping(to: ImageRect(x: 5, y: 6, width: 20, height: 11))
        #expect((crop.width, crop.height) == (20, 11))
        #expect(crop.pixels == Self.uprightRect(x: 5, y: 6, width: 20, height: 11))
    }

    @Test func storedCoordinatesAreTheStoredPixelsTurnedUpright() async throws {
        // Orientation 6: stored 41 wide and 61 high, turned a quarter clockwise to be seen.
        let source = try await ImageSource(KitFixtures.source("pictures/orientation6.png"))
        #expect((source.storedWidth, source.storedHeight) == (41, 61))
        // Stored rows 0 to 9, all columns: the displayed picture's right-hand 10 columns... of stored x 0-40,
        // which upright are displayed columns 51 to 60.
        let crop = try await source.cropping(to: ImageRect(x: 0, y: 0, width: 41, height: 10), in: .stored)
        #expect((crop.width, crop.height) == (10, 41))
        #expect(crop.pixels == Self.uprightRect(x: 51, y: 0, width: 10, height: 41))
    }

    @Test func aViewSRectIsMappedThroughItsContentMode() async throws {
        // A 122x82 view showing the picture at twice its size: a view rect is the picture's halved.
        let source = try await ImageSource(KitFixtures.source("pictures/orientation3.png"))
        let crop = try await source.cropping(to: ImageRect(x: 10, y: 12, width: 40, height: 22),
                                             in: .view(width: 122, height: 82, contentMode: .fit))
        #expect(crop.pixels == Self.uprightRect(x: 5, y: 6, width: 20, height: 11))
    }

    @Test func aRectOutsideIsAnErrorUnlessClamped() async throws {
        let source = try await ImageSource(KitFixtures.source("pictures/orientation1.png"))
        let path = RepositoryFixtures.path("pictures/orientation1.png")
        let run = try KitFixtures.tool(["crop", "--rect", "50,30,20,20", path, "-o", "/dev/null", "--overwrite"])
        let line = String(decoding: run.standardError, as: UTF8.self).split(separator: "\n").first.map(String.init)
        await #expect(throws: MediaError.self) { try await source.cropping(to: ImageRect(x: 50, y: 30, width: 20, height: 20)) }
        do {
            _ = try await source.cropping(to: ImageRect(x: 50, y: 30, width: 20, height: 20))
        } catch {
            guard case .invalidRequest = error else { Issue.record("\(error)"); return }
            #expect("\(error)".contains("(clamps crops the part inside)"))
            #expect(KitFixtures.asTheCommandLineSaysIt("mediatool: \(error)") == line)
        }
        let clamped = try await source.cropping(to: ImageRect(x: 50, y: 30, width: 20, height: 20), clamps: true)
        #expect(clamped.pixels == Self.uprightRect(x: 50, y: 30, width: 11, height: 11))
    }

    @Test func thumbnailsOfManySizesFromOneDecode() async throws {
        let source = try await ImageSource(KitFixtures.source("pictures/orientation6.jpg"))
        let sizes = try await source.thumbnails(fitting: [.maxPixelSize(30), ThumbnailBounds(height: 10), .original])
        #expect(sizes.map { [$0.width, $0.height] } == [[30, 20], [15, 10], [61, 41]])
    }

    @Test func encodedBytesDecodeToTheSamePixels() async throws {
        let folder = try RepositoryFixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let image = try await ImageSource(KitFixtures.source("pictures/orientation8.png")).image()
        let png = try await image.encoded(as: .png)
        let pngPath = folder.appendingPathComponent("a.png")
        try png.write(to: pngPath)
        let decoded = try DecodedPNG(path: pngPath.path)
        #expect((decoded.width, decoded.height, decoded.channels) == (61, 41, 3))
        #expect(decoded.bytes == KitFixtures.upright)
        #expect(try await image.encoded(as: .jpeg).prefix(3) == Data([0xFF, 0xD8, 0xFF]))
        let webp = try await image.encoded(as: ImageEncoding(.webp, lossless: true))
        #expect(webp.prefix(4) == Data("RIFF".utf8) && webp[8..<12] == Data("WEBP".utf8))
        // A lossless WebP is the pixels again, decoded here by the library itself from bytes.
        #expect(try await ImageSource(.data(webp)).image().pixels == KitFixtures.upright)
        // AVIF, read back by the library itself (libheif and dav1d), and by a .avif name's choice.
        let avif = try await image.encoded(as: ImageEncoding(.avif, quality: 95))
        #expect(avif[4..<12] == Data("ftypavif".utf8))
        let back = try await ImageSource(.data(avif)).image()
        #expect((back.width, back.height) == (61, 41))
        #expect(peakSignalToNoise(back.pixels, KitFixtures.upright) >= 30)
        try await image.write(to: folder.appendingPathComponent("named.avif"))
        #expect(try Data(contentsOf: folder.appendingPathComponent("named.avif"))[4..<12] == Data("ftypavif".utf8))
        await #expect(throws: MediaError.self) { try await image.encoded(as: { var bad = ImageEncoding.avif; bad.effort = 10; return bad }()) }
    }

    @Test func writesAreWholeAndNeverReplaceUnasked() async throws {
        let folder = try RepositoryFixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let image = try await ImageSource(KitFixtures.source("pictures/orientation2.png")).image()
        let target = folder.appendingPathComponent("out.png")
        try await image.write(to: target)
        #expect(try DecodedPNG(path: target.path).bytes == KitFixtures.upright)
        await #expect(throws: MediaError.self) { try await image.write(to: target) }
        try await image.write(to: target, as: .jpeg, overwrite: true)
        // Without a format, the name's: a .jpg is a JPEG; a .gif names none written.
        try await image.write(to: folder.appendingPathComponent("named.jpg"))
        #expect(try Data(contentsOf: folder.appendingPathComponent("named.jpg")).prefix(2) == Data([0xFF, 0xD8]))
        try FileManager.default.removeItem(at: folder.appendingPathComponent("named.jpg"))
        await #expect(throws: MediaError.self) { try await image.write(to: folder.appendingPathComponent("x.gif")) }
        #expect(try Data(contentsOf: target).prefix(2) == Data([0xFF, 0xD8]))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["out.png"])
        await #expect(throws: MediaError.self) { try await image.write(to: folder.appendingPathComponent("missing/out.png")) }
        await #expect(throws: MediaError.self) { try await image.encoded(as: ImageEncoding(.jpeg, quality: 0)) }
    }

    @Test func bitmapsFromElsewhereAreChecked() throws {
        #expect(try Bitmap(width: 2, height: 1, channels: 3, pixels: [1, 2, 3, 4, 5, 6]).pixel(x: 1, y: 0) == [4, 5, 6])
        #expect(try Bitmap(width: 1, height: 1, channels: 1, bitsPerSample: 16, pixels: [1, 2]).pixel(x: 0, y: 0) == [258])
        #expect(throws: MediaError.self) { try Bitmap(width: 2, height: 1, channels: 3, pixels: [1, 2, 3]) }
        #expect(throws: MediaError.self) { try Bitmap(width: Int.max, height: Int.max, channels: 4, pixels: []) }
        #expect(throws: MediaError.self) { try Bitmap(width: 1, height: 1, channels: 5, pixels: [1, 2, 3, 4, 5]) }
    }

    @Test func badPicturesAreTypedErrorsWithTheCommandLineSWords() async throws {
        for fixture in ["pictures/not-a-picture.png", "pictures/bomb.png", "pictures/empty.jpg", "missing.png"] {
            let path = RepositoryFixtures.path(fixture)
            let run = try KitFixtures.tool(["crop", "--rect", "0,0,1,1", path, "-o", "/dev/null", "--overwrite", "--sandbox", "off"])
            let line = String(decoding: run.standardError, as: UTF8.self).split(separator: "\n").first.map(String.init)
            do {
                let source = try await ImageSource(.path(path))
                Issue.record("\(fixture) opened: \(source.width)x\(source.height)")
            } catch {
                #expect(KitFixtures.asTheCommandLineSaysIt("mediatool: \(error)") == line, "\(fixture)")
                #expect(!"\(error)".contains("--"), "no flag in the library's words: \(error)")
            }
        }
        let cmyk = KitFixtures.source("tiff/cmyk.tif")
        await #expect(throws: MediaError.unsupportedFormat(file: cmyk.name, reason: "TIFF in CMYK (separated) is not supported (gray, RGB and palette are)")) {
            try await ImageSource(cmyk).image()
        }
        await #expect(throws: MediaError.unsupportedFormat(file: "x", reason: "not a PNG, JPEG, WebP, HEIF, AVIF or TIFF file")) {
            try await ImageSource(.data(Data("hello".utf8), name: "x"))
        }
    }

    @Test(arguments: ["pictures/orientation1.png", "pictures/orientation6.jpg", "heif/orientation6.heic", "heif/orientation1.avif",
                      "heif/grid6.heic", "heif/clap.heic", "webp/lossy.webp", "tiff/orientation1.tif"])
    func aPictureOverTheConfiguredLimitsIsRefusedFromItsHeader(fixture: String) async throws {
        let small = MediaConfiguration(threads: 1, maxPixels: 100)
        do {
            let source = try await ImageSource(KitFixtures.source(fixture), configuration: small)
            Issue.record("\(fixture) opened: \(source.storedWidth)x\(source.storedHeight)")
        } catch {
            guard case .overLimit = error else { Issue.record("\(error)"); return }
        }
    }

    @Test func thumbnailsOfAnyUpload() async throws {
        let generator = ThumbnailGenerator()
        let photo = try await generator.thumbnails(of: KitFixtures.source("pictures/orientation5.jpg"), fitting: [.maxPixelSize(20)])
        #expect(photo.seconds == nil && photo.orientation == .leftMirrored)
        #expect((photo.images[0].width, photo.images[0].height) == (20, 13))
        var atOne = ThumbnailGenerator()
        atOne.videoTime = .seconds(1)
        let video = try await atOne.thumbnails(of: KitFixtures.source("video/counter.mp4"), fitting: [.original, ThumbnailBounds(width: 64)])
        #expect(video.seconds == 1 && KitFixtures.frameNumber(video.images[0]) == 25)
        #expect((video.images[1].width, video.images[1].height) == (64, 8))
        await #expect(throws: MediaError.self) { try await generator.thumbnails(of: KitFixtures.source("video/counter.mp4"), fitting: []) }
    }
}

extension ImageSource {
    var swapsSize: Bool { orientation.swapsWidthAndHeight }
}
