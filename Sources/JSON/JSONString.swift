import FileIO

/// RFC 8259 JSON string literals.
public enum JSONString {
    /// A JSON string literal, quotes included. A byte of a file name that is not UTF-8 (see
    /// `PathBytes`) is written as a lone surrogate `\uDC80` to `\uDCFF`, as Python's
    /// `surrogateescape` does: `os.fsencode` gives the name's bytes back. Without
    /// `escapingPathBytes` (text that is no path), every scalar is written as itself.
    public static func quoted(_ text: String, escapingPathBytes: Bool = true) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                result += "\\u" + hex4(scalar.value)
            case _ where escapingPathBytes && PathBytes.isByteScalar(scalar):
                result += "\\u" + hex4(0xDC00 + UInt32(PathBytes.byte(standingFor: scalar)!))
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    private static func hex4(_ value: UInt32) -> String {
        let hex = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: 4 - hex.count) + hex
    }
}
