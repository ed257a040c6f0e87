/// The orientation an XMP packet states in `tiff:Orientation`, as an attribute (`tiff:Orientation="6"`)
/// or an element (`<tiff:Orientation>6</tiff:Orientation>`): read, and set when a crop turns the
/// pixels upright, so that no viewer turns them a second time.
public enum XMPOrientation {
    static let name = Array("tiff:Orientation".utf8)

    /// The stated orientation, 1 to 8; nil when there is none.
    public static func read(xmp packet: [UInt8]) -> Orientation? {
        valueIndex(in: packet).flatMap { Orientation(rawValue: Int(packet[$0] - UInt8(ascii: "0"))) }
    }

    /// `packet` stating `orientation` where it stated one; a packet that states none is kept as it is.
    public static func setting(_ orientation: Orientation, in packet: [UInt8]) -> [UInt8] {
        guard let at = valueIndex(in: packet) else { return packet }
        var edited = packet
        edited[at] = UInt8(ascii: "0") + UInt8(orientation.rawValue)
        return edited
    }

    /// Where the digit of the first `tiff:Orientation` value stands.
    private static func valueIndex(in text: [UInt8]) -> Int? {
        var at = 0
        while at + name.count + 2 <= text.count {
            if text[at..<(at + name.count)].elementsEqual(name) {
                var next = at + name.count
                if text[next] == UInt8(ascii: "=") { next += 1 }
                if next < text.count, text[next] == UInt8(ascii: "\"") || text[next] == UInt8(ascii: "'") || text[next] == UInt8(ascii: ">") {
                    next += 1
                    if next < text.count, (UInt8(ascii: "1")...UInt8(ascii: "8")).contains(text[next]) { return next }
                }
            }
            at += 1
        }
        return nil
    }
}
