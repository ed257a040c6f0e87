/// A value's text where it stands, and with `--hex` (or a JSON object's "hex"), the hex text beside it.
public struct ValueToken {
    public let text: [UInt8]
    public let line: Int
    public let column: Int
    public let hex: (text: [UInt8], line: Int, column: Int)?
}
