import FileIO
import JSON
import NumberText

/// Writes records in a `DoubleListLayout`, block by block, straight into an output buffer: each
/// record's fields in order, `columns` records a line (one, for records of several fields). The
/// one writer of `dump-array` and `dump-doubles`.
public struct RecordListWriter: Sendable {
    private let layout: DoubleListLayout
    private let record: RecordLayout
    /// For JSON Lines: the name of the input this line is about; nil for a lone JSON array.
    private let jsonFileName: String?
    private var written = 0
    /// Records a line (text, csv) or a row (json).
    private let perLine: Int
    private let maxBytesPerRecord: Int
    /// The byte order of a record that is one f64 and nothing else (what dump-doubles reads): such
    /// records take a loop of their own that writes doubles as fast as they can be formatted, where
    /// the general one looks up each field's type for every value.
    private let plainDoubleOrder: ByteOrder?

    public init(layout: DoubleListLayout, record: RecordLayout, jsonFileName: String? = nil) {
        self.layout = layout
        self.record = record
        self.jsonFileName = jsonFileName
        plainDoubleOrder = record.isScalar && record.fields[0].type == .f64 ? record.fields[0].byteOrder : nil
        perLine = record.fields.count == 1 ? layout.columns : 1
        // An index, and per field a value, its hex, separators and JSON's object around them.
        maxBytesPerRecord = 32 + record.fields.reduce(0) { $0 + FieldText.maxLength + 2 * $1.type.size + 24 }
    }

    /// Several fields make a row of their own in JSON.
    private var rowsAreRecords: Bool { record.fields.count > 1 }

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
            let columns = rowsAreRecords ? record.fields.map(\.name) : (0..<layout.columns).map { "c\($0)" }
            for column in columns {
                names.append(column)
                if layout.showsHex { names.append("\(column)_hex") }
            }
            try output.write(names.joined(separator: ",") + "\n")
        case .text, .csv:
            break
        }
    }

    /// Writes `count` records laid end to end `record.stride` bytes apart at `bytes`.
    public mutating func write(_ bytes: UnsafeRawBufferPointer, count: Int, to output: BufferedOutput) throws {
        if let order = plainDoubleOrder { return try writeDoubles(bytes, count: count, order: order, to: output) }
        var (cursor, end) = try output.reserve(maxBytesPerRecord)
        for index in 0..<count {
            if end - cursor < maxBytesPerRecord {
                output.commit(upTo: cursor)
                (cursor, end) = try output.reserve(maxBytesPerRecord)
            }
            let start = bytes.baseAddress! + index * record.stride
            cursor = layout.format == .json ? writeJSON(start, at: cursor) : writeDelimited(start, at: cursor)
            written &+= 1
        }
        output.commit(upTo: cursor)
    }

    private mutating func writeDoubles(_ bytes: UnsafeRawBufferPointer, count: Int, order: ByteOrder, to output: BufferedOutput) throws {
        var (cursor, end) = try output.reserve(maxBytesPerRecord)
        for index in 0..<count {
            if end - cursor < maxBytesPerRecord {
                output.commit(upTo: cursor)
                (cursor, end) = try output.reserve(maxBytesPerRecord)
            }
            let value = Self.double(at: index, of: bytes, order: order)
            cursor = layout.format == .json ? writeJSON(value, at: cursor, order: order) : writeDelimited(value, at: cursor, order: order)
            written &+= 1
        }
        output.commit(upTo: cursor)
    }

    @inline(__always)
    private static func double(at index: Int, of bytes: UnsafeRawBufferPointer, order: ByteOrder) -> Double {
        Double(bitPattern: order.hostValue(ofFileBytes: bytes.loadUnaligned(fromByteOffset: index &* 8, as: UInt64.self)))
    }

    /// The most bytes `count` records take once formatted.
    func maxBytes(forRecords count: Int) -> Int { count * maxBytesPerRecord }

    /// Formats `count` records, those at `first` and after in the list, into `buffer` (room for
    /// `maxBytes(forRecords:)`), exactly as `write` would at that point of the list; returns the bytes
    /// written. Blocks formatted apart and put one after another give `write`'s bytes.
    func format(_ bytes: UnsafeRawBufferPointer, count: Int, first: Int, into buffer: UnsafeMutablePointer<UInt8>) -> Int {
        var writer = self
        writer.written = first
        var cursor = buffer
        if let order = plainDoubleOrder {
            for index in 0..<count {
                let value = Self.double(at: index, of: bytes, order: order)
                cursor = layout.format == .json ? writer.writeJSON(value, at: cursor, order: order)
                    : writer.writeDelimited(value, at: cursor, order: order)
                writer.written &+= 1
            }
            return cursor - buffer
        }
        for index in 0..<count {
            let start = bytes.baseAddress! + index * record.stride
            cursor = layout.format == .json ? writer.writeJSON(start, at: cursor) : writer.writeDelimited(start, at: cursor)
            writer.written &+= 1
        }
        return cursor - buffer
    }

    /// Counts records formatted elsewhere (`format`), so that `finish` closes the list right.
    mutating func advance(by count: Int) {
        written &+= count
    }

    public func finish(to output: BufferedOutput) throws {
        let endsInsideRow = written % perLine != 0
        switch layout.format {
        case .json:
            var closing = endsInsideRow && perLine > 1 ? "]]" : "]"
            if jsonFileName != nil { closing += "}" }
            try output.write(closing + "\n")
        case .text:
            if endsInsideRow { try output.write("\n") }
        case .csv:
            // Every row has the header's fields (RFC 4180): the values the last row lacks are empty.
            if endsInsideRow {
                let missing = (perLine - written % perLine) * (layout.showsHex ? 2 : 1)
                try output.write(String(repeating: ",", count: missing) + "\n")
            }
        }
    }

    /// What comes before a record in text and csv: its line's index, or the separator after the
    /// record before it on the line.
    @inline(__always)
    private func delimitedStart(at begin: UnsafeMutablePointer<UInt8>, separator: UInt8) -> UnsafeMutablePointer<UInt8> {
        var cursor = begin
        if perLine == 1 || written % perLine == 0 {
            if layout.showsIndex {
                cursor += FieldText.writeUnsigned(UInt64(written), to: cursor)
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
        return cursor
    }

    /// The line end after a line's last record.
    @inline(__always)
    private func delimitedEnd(at begin: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        guard (perLine == 1 ? 0 : written % perLine) == perLine - 1 else { return begin }
        begin.pointee = UInt8(ascii: "\n")
        return begin + 1
    }

    /// What comes before a record in JSON: the comma after the one before, and a row's bracket.
    @inline(__always)
    private func jsonStart(at begin: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        var cursor = begin
        if written > 0 {
            cursor.pointee = UInt8(ascii: ",")
            cursor += 1
        }
        if rowsAreRecords || (perLine > 1 && written % perLine == 0) {
            cursor.pointee = UInt8(ascii: "[")
            cursor += 1
        }
        return cursor
    }

    /// The bracket that closes a row after its last record.
    @inline(__always)
    private func jsonEnd(at begin: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        guard rowsAreRecords || (perLine > 1 && written % perLine == perLine - 1) else { return begin }
        begin.pointee = UInt8(ascii: "]")
        return begin + 1
    }

    private func writeDelimited(_ start: UnsafeRawPointer, at begin: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        let separator = layout.format == .csv ? UInt8(ascii: ",") : UInt8(ascii: " ")
        var cursor = delimitedStart(at: begin, separator: separator)
        for (index, field) in record.fields.enumerated() {
            if index > 0 {
                cursor.pointee = separator
                cursor += 1
            }
            cursor += FieldText.write(field, in: start, json: false, to: cursor)
            if layout.showsHex {
                cursor.pointee = separator
                cursor += 1 + FieldText.writeHex(field, in: start, to: cursor + 1)
            }
        }
        return delimitedEnd(at: cursor)
    }

    private func writeJSON(_ start: UnsafeRawPointer, at begin: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        var cursor = jsonStart(at: begin)
        for (index, field) in record.fields.enumerated() {
            if index > 0 {
                cursor.pointee = UInt8(ascii: ",")
                cursor += 1
            }
            if layout.showsHex {
                cursor = append("{\"value\":", at: cursor)
                cursor += FieldText.write(field, in: start, json: true, to: cursor)
                cursor = append(",\"hex\":\"", at: cursor)
                cursor += FieldText.writeHex(field, in: start, to: cursor)
                cursor = append("\"}", at: cursor)
            } else {
                cursor += FieldText.write(field, in: start, json: true, to: cursor)
            }
        }
        return jsonEnd(at: cursor)
    }

    /// `writeDelimited` for a record that is one double: the same bytes.
    @inline(__always)
    private func writeDelimited(_ value: Double, at begin: UnsafeMutablePointer<UInt8>, order: ByteOrder) -> UnsafeMutablePointer<UInt8> {
        let separator = layout.format == .csv ? UInt8(ascii: ",") : UInt8(ascii: " ")
        var cursor = delimitedStart(at: begin, separator: separator)
        cursor += ShortestDecimal.write(value, to: cursor)
        if layout.showsHex {
            cursor.pointee = separator
            cursor = Self.writeHex(value, order: order, at: cursor + 1)
        }
        return delimitedEnd(at: cursor)
    }

    /// `writeJSON` for a record that is one double: the same bytes.
    @inline(__always)
    private func writeJSON(_ value: Double, at begin: UnsafeMutablePointer<UInt8>, order: ByteOrder) -> UnsafeMutablePointer<UInt8> {
        var cursor = jsonStart(at: begin)
        if layout.showsHex {
            cursor = append("{\"value\":", at: cursor)
            cursor += JSONNumber.write(value, to: cursor)
            cursor = append(",\"hex\":\"", at: cursor)
            cursor = Self.writeHex(value, order: order, at: cursor)
            cursor = append("\"}", at: cursor)
        } else {
            cursor += JSONNumber.write(value, to: cursor)
        }
        return jsonEnd(at: cursor)
    }

    /// The double's 8 bytes in file order, two uppercase hex digits each.
    @inline(__always)
    private static func writeHex(_ value: Double, order: ByteOrder, at cursor: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        // Read as a big-endian number, the file's bytes print first to last.
        let bits = value.bitPattern
        var printed = order == .little ? bits.byteSwapped : bits
        for position in stride(from: 15, through: 0, by: -1) {
            let nibble = UInt8(truncatingIfNeeded: printed & 0xF)
            cursor[position] = nibble < 10 ? nibble &+ UInt8(ascii: "0") : nibble &+ (UInt8(ascii: "A") &- 10)
            printed >>= 4
        }
        return cursor + 16
    }

    @inline(__always)
    private func append(_ text: StaticString, at cursor: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        cursor.update(from: text.utf8Start, count: text.utf8CodeUnitCount)
        return cursor + text.utf8CodeUnitCount
    }
}
