import Failures
/// Why a TIFF could not be read, each case saying what was found.
public enum TIFFError: Error, Equatable, CustomStringConvertible {
    /// What libtiff said.
    case library(message: String)
    /// A photometric interpretation mediatool does not turn into RGB or gray (CMYK, Lab, ...).
    case unsupportedPhotometric(Int)
    /// Samples that are not unsigned integers of 1, 2, 4, 8, 10, 12, 14 or 16 bits (8 for old-style JPEG).
    case unsupportedSamples(bits: Int, format: Int)
    /// Colour planes stored apart.
    case separatePlanes
    /// YCbCr stored without JPEG.
    case unsupportedCompression(String)
    /// An uncompressed strip whose byte count is less than its rows need.
    case stripTooShort(index: Int, bytes: UInt64, rows: Int, rowBytes: UInt64, rowsPerStrip: UInt32)
    /// An uncompressed tile whose byte count is less than a tile needs.
    case tileTooShort(index: Int, bytes: UInt64, width: Int, height: Int, needed: UInt64)

    /// A layout this tool does not read (CMYK, planes apart, odd samples), as against a broken file.
    public var isUnsupportedLayout: Bool {
        switch self {
        case .unsupportedPhotometric, .unsupportedSamples, .separatePlanes, .unsupportedCompression: return true
        case .library, .stripTooShort, .tileTooShort: return false
        }
    }

    public var description: String {
        switch self {
        case .library(let message): return "libtiff: \(message)"
        case .unsupportedPhotometric(let value):
            let name = [5: "CMYK (separated)", 8: "CIE L*a*b*", 9: "ICC L*a*b*", 10: "ITU L*a*b*", 32844: "LogL", 32845: "LogLuv"][value] ?? "photometric \(value)"
            return "TIFF in \(name) is not supported (gray, RGB and palette are)"
        case .unsupportedSamples(let bits, let format):
            return "TIFF samples of \(bits) bits" + (format == 1 ? "" : " in sample format \(format)") + " are not supported (unsigned 1, 2, 4, 8, 10, 12, 14 or 16 bits are)"
        case .separatePlanes: return "TIFF with colour planes stored apart (planar configuration 2) is not supported"
        case .unsupportedCompression(let what): return "TIFF \(what) is not supported"
        case .stripTooShort(let index, let bytes, let rows, let rowBytes, let rowsPerStrip):
            return "TIFF strip \(index) holds \(bytes) bytes, but its \(rows) rows of \(rowBytes) bytes need \(UInt64(rows) * rowBytes) (RowsPerStrip \(rowsPerStrip))"
        case .tileTooShort(let index, let bytes, let width, let height, let needed):
            return "TIFF tile \(index) holds \(bytes) bytes, but a \(width)x\(height) tile needs \(needed)"
        }
    }
}

extension TIFFError: ClassifiedError {
    public var failureKind: FailureKind {
        isUnsupportedLayout ? .unsupportedFormat : .damaged
    }
}
