/// RFC 4648 base64 with padding, as Python's `b64encode` writes it: the tool links no Foundation.
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var text: [UInt8] = []
        text.reserveCapacity((bytes.count + 2) / 3 * 4)
        for start in stride(from: 0, to: bytes.count, by: 3) {
            let count = min(3, bytes.count - start)
            let value = (0..<3).reduce(0) { $0 << 8 | ($1 < count ? Int(bytes[start + $1]) : 0) }
            for index in 0..<4 {
                text.append(index <= count ? alphabet[(value >> (18 - 6 * index)) & 63] : UInt8(ascii: "="))
            }
        }
        return String(decoding: text, as: UTF8.self)
    }
}
