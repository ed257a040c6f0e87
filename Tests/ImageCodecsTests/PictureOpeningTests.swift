import FileIO
import ImageCodecs
import Imaging
import Testing
import TestSupport

/// `PictureFormat.open`: a file read as the picture its bytes say, its header checked against the
/// limits before anything is decoded.
@Suite struct PictureOpeningTests {
    @Test func aNonPictureSaysSo() throws {
        let file = try InputFile(path: RepositoryFixtures.path("pictures/not-a-picture.png"))
        #expect(throws: PictureError.notAPicture) { try PictureFormat.open(file) }
        #expect(PictureError.notAPicture.description == "not a PNG, JPEG, WebP, HEIF, AVIF or TIFF file")
    }

    @Test func tooManyPixelsBeforeDecoding() throws {
        let big = try InputFile(path: RepositoryFixtures.path("pictures/camera.jpg"))
        #expect(throws: DecodeLimitError.tooManyPixels(width: 41, height: 61, limit: 100)) {
            try PictureFormat.open(big, PictureOpening(maxPixels: 100))
        }
        #expect(DecodeLimitError.tooManyPixels(width: 10, height: 20, limit: 100).description
                == "10x20 is 200 pixels, over the limit of 100 (maxPixels)")
    }

    /// Each format's reader: the stored size and orientation its header states (sizes from
    /// file(1), webpinfo, tiffinfo and heif-info, which gives the HEIC as shown, 96x64).
    @Test func eachFormatsHeader() throws {
        let expected: [(String, Int, Int, Orientation)] = [
            ("pictures/rgb8.png", 7, 5, .identity), ("webp/lossy.webp", 61, 41, .identity),
            ("tiff/orientation6.tif", 41, 61, .rotate90Clockwise), ("heif/orientation6.heic", 64, 96, .rotate90Clockwise),
        ]
        for (relative, width, height, orientation) in expected {
            let picture = try PictureFormat.open(try InputFile(path: RepositoryFixtures.path(relative)))
            #expect(picture.storedWidth == width && picture.storedHeight == height, "\(relative)")
            #expect(picture.orientation == orientation, "\(relative)")
        }
    }
}
