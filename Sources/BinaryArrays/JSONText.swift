import MediaIO

/// Numbers in RFC 8259 JSON, as the writers need them.
enum JSONText {
    static func quoted(_ text: String) -> String { JSONString.quoted(text) }

    /// A finite value as a number; NaN and the infinities as the protobuf JSON mapping's strings.
    @inline(__always)
    static func writeNumber(_ value: Double, to cursor: UnsafeMutablePointer<UInt8>) -> Int {
        if value.isFinite { return ShortestDecimal.write(value, to: cursor) }
        let word: StaticString = value.isNaN ? "\"NaN\"" : (value > 0 ? "\"Infinity\"" : "\"-Infinity\"")
        cursor.update(from: word.utf8Start, count: word.utf8CodeUnitCount)
        return word.utf8CodeUnitCount
    }

    /// The text of `writeNumber`, for values outside the hot path.
    static func number(_ value: Double) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { buffer in
            let length = writeNumber(value, to: buffer.baseAddress!)
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<length]), as: UTF8.self)
        }
    }
}
