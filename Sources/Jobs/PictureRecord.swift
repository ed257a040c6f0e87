import ImageCodecs
import Imaging
import Failures

/// One picture a library's call asked for (a size of a thumbnail, a video's frame, a crop) with
/// what goes with it, as a worker writes it to its output pipe and the caller reads it back: raw
/// samples and their colour description, so that the caller decodes nothing a stranger made (no
/// PNG or JPEG of the worker's is parsed), and what the caller gets is what in-process work gives.
public struct PictureRecord: Sendable, Equatable {
    /// Which of the call's sizes or times this answers.
    public var index: Int
    public var pixels: PixelBuffer
    public var metadata: PictureMetadata
    /// A video's frame's time; nil for a picture.
    public var seconds: Double?
    public var orientation: Orientation
    public var warnings: [String]

    public init(index: Int, pixels: PixelBuffer, metadata: PictureMetadata, seconds: Double?, orientation: Orientation, warnings: [String]) {
        self.index = index
        self.pixels = pixels
        self.metadata = metadata
        self.seconds = seconds
        self.orientation = orientation
        self.warnings = warnings
    }

    public static func == (a: PictureRecord, b: PictureRecord) -> Bool {
        a.index == b.index && a.pixels == b.pixels && a.metadata.color == b.metadata.color && a.metadata.codePoints == b.metadata.codePoints
            && a.metadata.exif == b.metadata.exif && a.metadata.xmp == b.metadata.xmp && a.seconds == b.seconds
            && a.orientation == b.orientation && a.warnings == b.warnings
    }

    static let magic: [UInt8] = Array("MTPX".utf8)
    /// The fixed part: magic, index, width, height, channels, bytes a sample, orientation, the
    /// flags of what is there, seconds, sRGB intent, gamma, eight chromaticities, and the lengths
    /// of the ICC profile, the code points, EXIF, XMP and the warnings.
    static let headerSize = 4 + 4 * 3 + 4 + 8 + 4 * 2 + 4 * 8 + 4 * 5
    /// The most a record's variable parts may claim (each), whatever the limit on the pixels.
    static let largestPart = 16 << 20

    private enum Present: UInt8 {
        case seconds = 1, srgbIntent = 2, gamma = 4, chromaticities = 8, icc = 16, codePoints = 32, exif = 64, xmp = 128
    }

    /// The record's bytes.
    public var bytes: [UInt8] {
        var out = Self.magic
        func u32(_ value: Int) { withUnsafeBytes(of: UInt32(truncatingIfNeeded: value).littleEndian) { out += $0 } }
        let color = metadata.color
        var present: UInt8 = 0
        if seconds != nil { present |= Present.seconds.rawValue }
        if color?.srgbIntent != nil { present |= Present.srgbIntent.rawValue }
        if color?.gamma != nil { present |= Present.gamma.rawValue }
        if color?.chromaticities?.count == 8 { present |= Present.chromaticities.rawValue }
        if color?.iccProfile != nil { present |= Present.icc.rawValue }
        if metadata.codePoints != nil { present |= Present.codePoints.rawValue }
        if metadata.exif != nil { present |= Present.exif.rawValue }
        if metadata.xmp != nil { present |= Present.xmp.rawValue }
        u32(index)
        u32(pixels.width)
        u32(pixels.height)
        out += [UInt8(pixels.channels), UInt8(pixels.bytesPerSample), UInt8(orientation.rawValue), present]
        withUnsafeBytes(of: (seconds ?? 0).bitPattern.littleEndian) { out += $0 }
        u32(color?.srgbIntent ?? 0)
        u32(color?.gamma ?? 0)
        let chromaticities = color?.chromaticities?.count == 8 ? color!.chromaticities! : Array(repeating: 0, count: 8)
        chromaticities.forEach(u32)
        let warningText = Array(warnings.joined(separator: "\n").utf8)
        let parts = [color?.iccProfile ?? [], metadata.codePoints ?? [], metadata.exif ?? [], metadata.xmp ?? [], warningText]
        parts.forEach { u32($0.count) }
        parts.forEach { out += $0 }
        out += pixels.bytes
        return out
    }
}

/// Reads records from bytes as they come (from a worker's pipe), each handed on once whole. The
/// bytes are a stranger's worker's: every length is checked before anything is kept. One record's
/// pixels may take no more than `limit` bytes, and with `limitsTotal`, all of them together (a
/// call that gets its pictures at once holds them all; a loop over frames, one at a time).
public struct PictureRecordReader {
    private var pending: [UInt8] = []
    private let limit: Int
    private let limitsTotal: Bool
    private var taken = 0
    /// Whole records' count so far.
    public private(set) var count = 0

    public init(limit: Int, limitsTotal: Bool = false) {
        self.limit = limit
        self.limitsTotal = limitsTotal
    }

    /// Nothing left half read.
    public var isAtRecordEnd: Bool { pending.isEmpty }

    public mutating func take(_ bytes: UnsafeRawBufferPointer, _ body: (PictureRecord) throws -> Void) throws {
        pending.append(contentsOf: bytes)
        while let size = try wholeSize() {
            let record = try Self.parse(pending[0..<size])
            pending.removeFirst(size)
            count += 1
            taken += record.pixels.bytes.count
            try body(record)
        }
    }

    /// The size of the record that begins `pending`, once all of it is there; nil before.
    private func wholeSize() throws -> Int? {
        guard pending.count >= PictureRecord.headerSize else { return nil }
        guard Array(pending[0..<4]) == PictureRecord.magic else { throw PictureRecordError.malformed("no record's mark") }
        let width = u32(at: 8), height = u32(at: 12)
        let channels = Int(pending[16]), bytesPerSample = Int(pending[17])
        guard width > 0, height > 0, (1...4).contains(channels), bytesPerSample == 1 || bytesPerSample == 2 else {
            throw PictureRecordError.malformed("a picture of \(width)x\(height), \(channels) channels of \(bytesPerSample) bytes")
        }
        let (samples, overflow) = width.multipliedReportingOverflow(by: height)
        let (pixelBytes, overflowBytes) = samples.multipliedReportingOverflow(by: channels * bytesPerSample)
        guard !overflow, !overflowBytes, pixelBytes <= limit - (limitsTotal ? taken : 0) else { throw PictureRecordError.tooLarge(limit: limit) }
        var size = PictureRecord.headerSize + pixelBytes
        for part in 0..<5 {
            let length = u32(at: PictureRecord.headerSize - 20 + 4 * part)
            guard length <= PictureRecord.largestPart else { throw PictureRecordError.tooLarge(limit: PictureRecord.largestPart) }
            size += length
        }
        return pending.count >= size ? size : nil
    }

    private func u32(at offset: Int) -> Int {
        (0..<4).reduce(0) { $0 | Int(pending[offset + $1]) << (8 * $1) }
    }

    private static func parse(_ bytes: ArraySlice<UInt8>) throws -> PictureRecord {
        let base = bytes.startIndex
        func u32(_ offset: Int) -> Int { (0..<4).reduce(0) { $0 | Int(bytes[base + offset + $1]) << (8 * $1) } }
        func i32(_ offset: Int) -> Int { Int(Int32(truncatingIfNeeded: u32(offset))) }
        let index = u32(4), width = u32(8), height = u32(12)
        let channels = Int(bytes[base + 16]), bytesPerSample = Int(bytes[base + 17])
        guard let orientation = Orientation(rawValue: Int(bytes[base + 18])) else { throw PictureRecordError.malformed("no orientation") }
        let present = bytes[base + 19]
        let secondsBits = (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[base + 20 + $1]) << (8 * UInt64($1)) }
        let seconds = Double(bitPattern: secondsBits)
        guard present & 1 == 0 || seconds.isFinite else { throw PictureRecordError.malformed("a time of \(seconds)") }
        var offset = PictureRecord.headerSize
        var parts: [[UInt8]] = []
        for part in 0..<5 {
            let length = u32(PictureRecord.headerSize - 20 + 4 * part)
            parts.append(Array(bytes[base + offset..<base + offset + length]))
            offset += length
        }
        var color = ColorDescription()
        if present & 2 != 0 { color.srgbIntent = i32(28) }
        if present & 4 != 0 { color.gamma = i32(32) }
        if present & 8 != 0 { color.chromaticities = (0..<8).map { i32(36 + 4 * $0) } }
        if present & 16 != 0 { color.iccProfile = parts[0] }
        let metadata = PictureMetadata(color: color.isEmpty ? nil : color, exif: present & 64 != 0 ? parts[2] : nil,
                                       xmp: present & 128 != 0 ? parts[3] : nil, codePoints: present & 32 != 0 ? parts[1] : nil)
        let warnings = parts[4].isEmpty ? [] : String(decoding: parts[4], as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let pixels = PixelBuffer(width: width, height: height, channels: channels, bytesPerSample: bytesPerSample,
                                 bytes: Array(bytes[(base + offset)...]))
        return PictureRecord(index: index, pixels: pixels, metadata: metadata, seconds: present & 1 != 0 ? seconds : nil,
                             orientation: orientation, warnings: warnings)
    }
}

public enum PictureRecordError: Error, CustomStringConvertible {
    case malformed(String)
    case tooLarge(limit: Int)

    public var description: String {
        switch self {
        case .malformed(let what): return "the worker sent a malformed picture (\(what)) and was ended"
        case .tooLarge(let limit): return "the worker sent a picture over \(limit) bytes and was ended"
        }
    }
}

extension PictureRecordError: ClassifiedError {
    public var failureKind: FailureKind {
        // A worker that sends a malformed picture was taken over by its file.
        .damaged
    }
}
