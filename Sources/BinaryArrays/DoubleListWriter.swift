import FileIO
import JSON
import NumberText

/// Writes decoded doubles in a `DoubleListLayout`, block by block, straight into an output buffer.
public struct DoubleListWriter: Sendable {
    private let layout: DoubleListLayout
    private let byteOrder: ByteOrder
    /// For JSON Lines: the name of the input this line is about; nil for a lone JSON array.
    private let jsonFileName: String?
    private var written = 0

    /// The most bytes one value adds: an index, a value, its hex, separators and a line end.
    private static let maxBytesPerValue = 96

    public init(layout: DoubleListLayout, byteOrder: ByteOrder, jsonFileName: String? = nil) {
        self.layout = layout
        self.byteOrder = byteOrder
        self.jsonFileName = jsonFileName
    }

    public func begin(to output: BufferedOutput) throws {
        switch layout.format {
        case .json:
            if let name = jsonFileName {
                try output.write("{\"file\":\(JSONString.quoted(name)),\"values\":[")
            } else {
                try output.write("[")
            }
        case .csv where layout.showsHeader:
            var names: [String] = layout.showsIndex ? ["index"] : []
            for column in 0..<layout.columns {
                names.append("c\(column)")
                if layout.showsHex { names.append("c\(column)_hex") }
            }
            try output.write(names.joined(separator: ",") + "\n")
        case .text, .csv:
            break
        }
    }

    public mutating func write(_ values: UnsafeBufferPointer<Double>, to output: BufferedOutput) throws {
        var (cursor, end) = try output.reserve(Self.maxBytesPerValue)
        for value in values {
            if end - cursor < Self.maxBytesPerValue {
                output.commit(upTo: cursor)
                (cursor, end) = try output.reserve(Self.maxBytesPerValue)
            }
            cursor = layout.format == .json ? writeJSON(value, at: cursor) : writeDelimited(value, at: cursor)
            written &+= 1
        }
        output.commit(upTo: cursor)
    }

    /// The most bytes `count` values take once formatted.
    static func maxBytes(forValues count: Int) -> Int { count * maxBytesPerValue }

    /// Formats `values`, those at `first` and after in the list, into `buffer` (room for
    /// `maxBytes(forValues:)`), exactly as `write` would at that point of the list; returns the
    /// bytes written. Blocks formatted apart and put one after another give `write`'s bytes.
    func format(_ values: UnsafeBufferPointer<Double>, first: Int, into buffer: UnsafeMutablePointer<UInt8>) -> Int {
        var writer = self
        writer.written = first
        var cursor = buffer
        for value in values {
            cursor = layout.format == .json ? writer.writeJSON(value, at: cursor) : writer.writeDelimited(value, at: cursor)
            writer.written &+= 1
        }
        return cursor - buffer
    }

    /// Counts values formatted elsewhere (`format`), so that `finish` closes the list right.
    mutating func advance(by count: Int) {
        written &+= count
    }

    public func finish(to output: BufferedOutput) throws {
        let endsInsideRow = written % layout.columns != 0
        switch layout.format {
        case .json:
            var closing = endsInsideRow && layout.columns > 1 ? "]]" : "]"
            if jsonFileName != nil { closing += "}" }
            try output.write(closing + "\n")
        case .text:
            if endsInsideRow { try output.write("\n") }
        case .csv:
            // Every row has the header's fields (RFC 4180): the values the last row lacks are empty.
            if endsInsideRow {
                let missing = (layout.columns - written % layout.columns) * (layout.showsHex ? 2 : 1)
                try output.write(String(repeating: ",", count: missing) + "\n")
            }
        }
    }

    @inline(__always)
    private func writeDelimited(_ value: Double, at start: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        var cursor = start
        let separator = layout.format == .csv ? UInt8(ascii: ",") : UInt8(ascii: " ")
        let column = layout.columns == 1 ? 0 : written % layout.columns
        if column == 0 {
            if layout.showsIndex {
                cursor = writeDecimal(written, at: cursor)
                if layout.format == .text {
                    cursor.pointee = UInt8(ascii: ":")
                    cursor += 1
                }
                cursor.pointee = separator
                cursor += 1
            }
        } else {
            cursor.pointee = separator
            cursor += 1
        }
        cursor += ShortestDecimal.write(value, to: cursor)
        if layout.showsHex {
            cursor.pointee = separator
            cursor = writeHex(value, at: cursor + 1)
        }
        if column == layout.columns - 1 {
            cursor.pointee = UInt8(ascii: "\n")
            cursor += 1
        }
        return cursor
    }

    @inline(__always)
    private func writeJSON(_ value: Double, at start: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        var cursor = start
        let column = layout.columns == 1 ? 0 : written % layout.columns
        if written > 0 {
            cursor.pointee = UInt8(ascii: ",")
            cursor += 1
        }
        if column == 0 && layout.columns > 1 {
            cursor.pointee = UInt8(ascii: "[")
            cursor += 1
        }
        if layout.showsHex {
            cursor = append("{\"value\":", at: cursor)
            cursor += JSONNumber.write(value, to: cursor)
            cursor = append(",\"hex\":\"", at: cursor)
            cursor = writeHex(value, at: cursor)
            cursor = append("\"}", at: cursor)
        } else {
            cursor += JSONNumber.write(value, to: cursor)
        }
        if column == layout.columns - 1 && layout.columns > 1 {
            cursor.pointee = UInt8(ascii: "]")
            cursor += 1
        }
        return cursor
    }

    /// The value's 8 bytes in file order, two uppercase hex digits each.
    @inline(__always)
    private func writeHex(_ value: Double, at cursor: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        // Read as a big-endian number, the file's bytes print first to last.
        let bits = value.bitPattern
        var printed = byteOrder == .little ? bits.byteSwapped : bits
        for position in stride(from: 15, through: 0, by: -1) {
            let nibble = UInt8(truncatingIfNeeded: printed & 0xF)
            cursor[position] = nibble < 10 ? nibble &+ UInt8(ascii: "0") : nibble &+ (UInt8(ascii: "A") &- 10)
            printed >>= 4
        }
        return cursor + 16
    }

    @inline(__always)
    private func writeDecimal(_ value: Int, at cursor: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        let count = ShortestDecimal.digitCount(UInt64(value))
        ShortestDecimal.writeDigits(UInt64(value), count: count, to: cursor)
        return cursor + count
    }

    @inline(__always)
    private func append(_ text: StaticString, at cursor: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        cursor.update(from: text.utf8Start, count: text.utf8CodeUnitCount)
        return cursor + text.utf8CodeUnitCount
    }
}
