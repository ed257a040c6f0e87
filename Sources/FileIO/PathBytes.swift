/// File names are bytes on Linux, not always UTF-8 (a camera card written on Windows, an archive
/// from another locale). Paths travel through the tool as Strings in which each byte that is not
/// part of valid UTF-8 stands as one scalar of a private-use block, U+10FF80 to U+10FFFF, and turn
/// back into the same bytes at every system call: no name is lost or changed on the way.
public enum PathBytes {
    /// The scalar that stands for byte 0x80 + n is U+10FF80 + n.
    static let byteScalarBase: UInt32 = 0x10FF00

    /// The path for the bytes a system call gave (argv, readdir, a list file).
    public static func string<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        let bytes = Array(bytes)
        if let valid = String(validating: bytes, as: UTF8.self), !valid.unicodeScalars.contains(where: isByteScalar) {
            return valid
        }
        var scalars = String.UnicodeScalarView()
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var position = 0
        loop: while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                let scalar = Unicode.UTF8.decode(encoded)
                // A real name holding one of the stand-in scalars would come back as other bytes:
                // its own bytes are kept as bytes instead.
                if isByteScalar(scalar) {
                    for byte in bytes[position..<(position + encoded.count)] { scalars.append(byteScalar(byte)) }
                } else {
                    scalars.append(scalar)
                }
                position += encoded.count
            case .error(let length):
                for byte in bytes[position..<(position + length)] { scalars.append(byteScalar(byte)) }
                position += length
            case .emptyInput:
                break loop
            }
        }
        return String(scalars)
    }

    /// The bytes of `path`, as the file system knows it.
    public static func bytes(_ path: String) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(path.utf8.count)
        for scalar in path.unicodeScalars {
            if isByteScalar(scalar) {
                result.append(UInt8(scalar.value - byteScalarBase))
            } else {
                result.append(contentsOf: String(scalar).utf8)
            }
        }
        return result
    }

    /// Calls `body` with `path` as a NUL-terminated C string of its bytes.
    public static func withCString<Result>(_ path: String, _ body: (UnsafePointer<CChar>) throws -> Result) rethrows -> Result {
        if !path.unicodeScalars.contains(where: isByteScalar) {
            return try path.withCString(body)
        }
        var cString = bytes(path).map { CChar(bitPattern: $0) }
        cString.append(0)
        return try cString.withUnsafeBufferPointer { try body($0.baseAddress!) }
    }

    /// The byte a stand-in scalar stands for, or nil for any other scalar.
    public static func byte(standingFor scalar: Unicode.Scalar) -> UInt8? {
        isByteScalar(scalar) ? UInt8(scalar.value - byteScalarBase) : nil
    }

    public static func isByteScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value >= byteScalarBase + 0x80 && scalar.value <= byteScalarBase + 0xFF
    }

    static func byteScalar(_ byte: UInt8) -> Unicode.Scalar {
        // Bytes below 0x80 are always valid UTF-8 on their own.
        Unicode.Scalar(byteScalarBase + UInt32(byte))!
    }
}

extension PathBytes {
    /// A file name as a relative URL (a WebVTT cue's picture, an HLS playlist's segment): bytes
    /// other than unreserved characters percent-encoded, so that a space, `#`, `?`, quote or line
    /// break in a name does not end the URL or the line. The name's own bytes are encoded, so one
    /// that is not UTF-8 (`caf\xe9.mp4`) is `caf%E9.mp4`, the file's name.
    public static func urlPath(_ name: String) -> String {
        var encoded = ""
        for byte in bytes(name) {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                encoded.append(Character(Unicode.Scalar(byte)))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                encoded += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return encoded
    }
}
