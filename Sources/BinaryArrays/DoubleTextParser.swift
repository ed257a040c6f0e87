import FileIO

/// Why a text of numbers could not be read as doubles.
public enum DoubleTextError: Error, Equatable, CustomStringConvertible {
    /// The token at `line`, `column` (both from 1; the column counts bytes) is not a number.
    case invalidNumber(line: Int, column: Int, token: String)
    /// The token is a number beyond the range of a double (it would become infinity or zero).
    case outOfRange(line: Int, column: Int, token: String)

    public var description: String {
        switch self {
        case .invalidNumber(let line, let column, let token):
            return "line \(line), column \(column): not a number: \(Self.shown(token))"
        case .outOfRange(let line, let column, let token):
            return "line \(line), column \(column): out of the range of a double: \(Self.shown(token))"
        }
    }

    private static func shown(_ token: String) -> String {
        let limit = 40
        let text = token.count > limit ? String(token.prefix(limit)) + "..." : token
        return "'\(text)'"
    }
}

/// Reads decimal numbers separated by whitespace or commas, and `nan`, `inf`, `-inf`, `infinity`
/// (any case) and the JSON strings `"NaN"`, `"Infinity"`, `"-Infinity"`, in constant memory.
public struct DoubleTextParser<Source: ByteSource> {
    private var source: Source
    /// A token cut by the end of a read, kept for the next.
    private var pending: [UInt8] = []
    private var line = 1
    private var column = 1
    private var tokenLine = 1
    private var tokenColumn = 1

    /// Tokens longer than this are not numbers; the limit keeps memory constant on hostile input.
    private static var maxTokenLength: Int { 1024 }

    public init(source: Source) {
        self.source = source
    }

    /// Calls `body` with each value in order.
    public mutating func forEachValue(_ body: (Double) throws -> Void) throws {
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 1)
        defer { chunk.deallocate() }
        while true {
            let count = try source.read(into: chunk)
            if count == 0 { break }
            for byte in UnsafeRawBufferPointer(rebasing: chunk[..<count]) {
                if isSeparator(byte) {
                    if !pending.isEmpty { try body(takeToken()) }
                    if byte == UInt8(ascii: "\n") {
                        line += 1
                        column = 1
                    } else {
                        column += 1
                    }
                    continue
                }
                if pending.isEmpty {
                    tokenLine = line
                    tokenColumn = column
                }
                if pending.count == Self.maxTokenLength {
                    throw DoubleTextError.invalidNumber(line: tokenLine, column: tokenColumn,
                                                        token: String(decoding: pending, as: UTF8.self))
                }
                pending.append(byte)
                column += 1
            }
        }
        if !pending.isEmpty { try body(takeToken()) }
    }

    private mutating func takeToken() throws -> Double {
        defer { pending.removeAll(keepingCapacity: true) }
        let text = String(decoding: pending, as: UTF8.self)
        if let special = Self.specialValue(text) { return special }
        guard pending.allSatisfy(isNumberCharacter),
              pending.contains(where: { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
              let value = Double(text)
        else {
            throw DoubleTextError.invalidNumber(line: tokenLine, column: tokenColumn, token: text)
        }
        // Zero from a non-zero significand is an underflow, as infinity from digits is an overflow.
        let significandIsNonZero = pending.prefix { $0 != UInt8(ascii: "e") && $0 != UInt8(ascii: "E") }
            .contains { $0 >= UInt8(ascii: "1") && $0 <= UInt8(ascii: "9") }
        if value.isInfinite || (value == 0 && significandIsNonZero) {
            throw DoubleTextError.outOfRange(line: tokenLine, column: tokenColumn, token: text)
        }
        return value
    }

    private static func specialValue(_ text: String) -> Double? {
        switch text.lowercased() {
        case "nan", "+nan", "-nan", "\"nan\"": return .nan
        case "inf", "+inf", "infinity", "+infinity", "\"infinity\"": return .infinity
        case "-inf", "-infinity", "\"-infinity\"": return -.infinity
        default: return nil
        }
    }
}

@inline(__always)
private func isSeparator(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: " ") || byte == UInt8(ascii: ",") || (byte >= 0x09 && byte <= 0x0D)
}

@inline(__always)
private func isNumberCharacter(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "+"), UInt8(ascii: "-"),
         UInt8(ascii: "e"), UInt8(ascii: "E"):
        return true
    default:
        return false
    }
}
