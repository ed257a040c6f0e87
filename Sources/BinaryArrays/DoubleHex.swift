/// A value's 8 bytes written as 16 hex digits, first byte of the file first (`--hex`).
enum DoubleHex {
    /// The bytes of `token` read as a big-endian number, so the file's first byte is the top one; nil
    /// unless `token` is exactly 16 hex digits (either case).
    static func printedBytes(_ token: some Collection<UInt8>) -> UInt64? {
        guard token.count == 16 else { return nil }
        var bits: UInt64 = 0
        for byte in token {
            let nibble: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = byte - UInt8(ascii: "0")
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = byte - UInt8(ascii: "A") + 10
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = byte - UInt8(ascii: "a") + 10
            default: return nil
            }
            bits = bits << 4 | UInt64(nibble)
        }
        return bits
    }

    /// The exact value the hex stands for, checked against the decimal printed beside it. The dump may
    /// have been made in either byte order: `preferred` (the order being written) is tried first.
    /// A NaN takes its sign and payload from the hex, which the decimal `nan` does not carry.
    static func resolve(_ value: Double, printed: UInt64, preferred: ByteOrder) -> Double? {
        let orders: [ByteOrder] = preferred == .little ? [.little, .big] : [.big, .little]
        for order in orders {
            let bits = order == .little ? printed.byteSwapped : printed
            let candidate = Double(bitPattern: bits)
            if value.isNaN ? candidate.isNaN : bits == value.bitPattern { return candidate }
        }
        return nil
    }

    /// The double a token stands for: its decimal, made exact by its hex where given.
    static func value(of token: ValueToken, preferred: ByteOrder) throws -> Double {
        let value = try DoubleToken.value(of: token.text, line: token.line, column: token.column)
        guard let hex = token.hex else { return value }
        let text = String(decoding: hex.text, as: UTF8.self)
        guard let printed = printedBytes(hex.text) else {
            throw DoubleTextError.invalidHex(line: hex.line, column: hex.column, token: text, digits: 16)
        }
        guard let exact = resolve(value, printed: printed, preferred: preferred) else {
            throw DoubleTextError.hexMismatch(line: hex.line, column: hex.column, hex: text, value: "\(value)")
        }
        return exact
    }
}
