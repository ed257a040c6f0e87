import ColourManagement
import FileIO
import ImageCodecs
import Imaging
import MetadataStripping

/// A picture's probe: its header read by the same reader `crop` and `thumbnail` open it with, so
/// that the size shown is the size they write.
enum PictureProbe {
    static func probe(_ file: InputFile, options: ProbeOptions) throws -> (ProbeResult, warnings: [String]) {
        // A header read decodes nothing: the limits hold for what --deep decodes, and a picture too
        // large for thumbnail still says its size.
        var opening = options.deep ? PictureOpening(maxPixels: options.limits.maxPixels, maxMemory: options.limits.maxMemory, threads: options.threads)
            : PictureOpening(maxPixels: Int.max, maxMemory: Int.max, threads: 1)
        opening.readsPixels = options.deep
        let picture = try PictureFormat.open(file, opening)
        let facts = picture.facts
        var result = ProbeResult(kind: .picture, format: facts.format, mime: facts.mime)
        let shown = picture.orientation.displaySize(storedWidth: picture.storedWidth, storedHeight: picture.storedHeight)
        (result.width, result.height) = (shown.width, shown.height)
        (result.codedWidth, result.codedHeight) = (picture.storedWidth, picture.storedHeight)
        result.orientation = picture.orientation.rawValue
        result.rotation = picture.orientation.clockwiseRotation
        result.frames = facts.frames
        result.codec = facts.codec
        result.bitDepth = facts.bitDepth
        result.alpha = facts.hasAlpha
        result.hdr = picture.hdrTransfer.map { $0 == .pq ? "pq" : "hlg" }
        result.icc = picture.color?.iccProfile.flatMap(ICCProfileDescription.of)
        result.embeddedThumbnail = facts.embeddedThumbnail.map { ProbeResult.Size(width: $0.width, height: $0.height) }
        result.capture = (facts.metadataDirectories ?? picture.exif).flatMap { ExifBlock($0)?.capture } ?? CaptureMetadata()
        let motion = motionPhoto(in: file, xmp: picture.xmp)
        result.motionPhoto = motion.video
        if options.deep {
            // The smallest size the format decodes to: every coded byte read, the least memory.
            try picture.readRows(at: picture.reducedSize(atLeast: 1, 1)) { _ in }
            result.decodes = true
        }
        return (result, picture.warnings + (motion.warning.map { [$0] } ?? []))
    }
}

extension PictureProbe {
    /// A Motion Photo's video, where the picture's XMP says one follows and an MP4 (`ftyp`) is
    /// there; a warning where the XMP says one and none is there (its offset wrong: the site that
    /// shows it would lose the motion without a word).
    static func motionPhoto(in file: InputFile, xmp: [UInt8]?) -> (video: ProbeResult.ByteRange?, warning: String?) {
        guard let xmp, let size = file.size, let range = MotionPhoto.video(describedBy: xmp, fileSize: size) else { return (nil, nil) }
        var head = [UInt8](repeating: 0, count: 8)
        guard (try? head.withUnsafeMutableBytes { try file.read(at: range.lowerBound, into: $0) }) == 8,
              head[4...].elementsEqual("ftyp".utf8), MetadataStripper.videoFollowsPicture(in: file, at: range) else {
            return (nil, "the XMP says a Motion Photo's video of the last \(range.count) bytes follows the picture, but no MP4 starts there: none is reported")
        }
        return (ProbeResult.ByteRange(offset: range.lowerBound, length: range.count), nil)
    }
}

extension Orientation {
    /// Degrees clockwise that turn the stored picture upright once its mirror (if any) is applied,
    /// as EXIF describes its eight values.
    var clockwiseRotation: Int {
        switch rawValue {
        case 3, 4: return 180
        case 6, 7: return 90
        case 5, 8: return 270
        default: return 0
        }
    }
}
