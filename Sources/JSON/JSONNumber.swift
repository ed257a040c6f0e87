import NumberText


/// Doubles as RFC 8259 JSON numbers, shortest round-trip (the same text for a report's value and
/// for dump-doubles' millions).
public enum JSONNumber {
    /// A finite value as a number; NaN and the infinities as the protobuf JSON mapping's strings.
    @inline(__always)
    public static func write(_ value: Double, to cursor: UnsafeMutablePointer<UInt8>) -> Int {
        if value.isFinite { return ShortestDecimal.write(value, to: cursor) }
        let word: StaticString = value.isNaN ? "\"NaN\"" : (value > 0 ? "\"Infinity\"" : "\"-Infinity\"")
        cursor.update(from: word.utf8Start, count: word.utf8CodeUnitCount)
        return word.utf8CodeUnitCount
    }

    /// The text of `write`, for values outside the hot path.
    public static func text(_ value: Double) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { buffer in
            let length = write(value, to: buffer.baseAddress!)
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<length]), as: UTF8.self)
        }
    }
}
