/// The APPn marker segments that carry a picture's metadata in a JPEG, made once for every writer
/// (the encoder and the lossless crop): EXIF in APP1, XMP in APP1, the ICC profile in APP2.
public enum JPEGSegments {
    /// The most a segment's length field allows: 65535 bytes with the field itself.
    static let maximumPayload = 65533
    static let exifHeader: [UInt8] = Array("Exif\0\0".utf8)
    static let xmpHeader: [UInt8] = Array("http://ns.adobe.com/xap/1.0/\0".utf8)
    static let iccHeader: [UInt8] = Array("ICC_PROFILE\0".utf8)

    /// The segments for `exif` (a TIFF block), `xmp` and `iccProfile`, in that order, and a line
    /// for each that cannot fit (JPEG caps a segment at 64 KiB; an ICC profile may span 255).
    public static func metadata(exif: [UInt8]?, xmp: [UInt8]?, iccProfile: [UInt8]?) -> (bytes: [UInt8], leftOut: [String]) {
        var bytes: [UInt8] = []
        var leftOut: [String] = []
        if let exif, !exif.isEmpty {
            if !append(marker: 0xE1, header: exifHeader, exif[...], to: &bytes) {
                leftOut.append("EXIF left out: \(exif.count) bytes do not fit a JPEG segment")
            }
        }
        if let xmp, !xmp.isEmpty {
            if !append(marker: 0xE1, header: xmpHeader, xmp[...], to: &bytes) {
                leftOut.append("XMP left out: \(xmp.count) bytes do not fit a JPEG segment")
            }
        }
        if let iccProfile, !iccProfile.isEmpty {
            let room = maximumPayload - iccHeader.count - 2
            let count = (iccProfile.count + room - 1) / room
            if count > 255 {
                leftOut.append("ICC profile left out: \(iccProfile.count) bytes need more than 255 JPEG segments")
            } else {
                for index in 0..<count {
                    let part = iccProfile[index * room ..< min(iccProfile.count, (index + 1) * room)]
                    _ = append(marker: 0xE2, header: iccHeader + [UInt8(index + 1), UInt8(count)], part, to: &bytes)
                }
            }
        }
        return (bytes, leftOut)
    }

    private static func append(marker: UInt8, header: [UInt8], _ payload: ArraySlice<UInt8>, to bytes: inout [UInt8]) -> Bool {
        let length = header.count + payload.count + 2
        guard length <= maximumPayload + 2 else { return false }
        bytes += [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)]
        bytes += header
        bytes += payload
        return true
    }

    /// `segments` put into the JPEG `file` right after its SOI and any JFIF APP0 segment, where
    /// EXIF readers look for them.
    public static func inserting(_ segments: [UInt8], into file: [UInt8]) -> [UInt8] {
        guard !segments.isEmpty, file.count >= 4, file[0] == 0xFF, file[1] == 0xD8 else { return file }
        var at = 2
        if file.count >= 6, file[2] == 0xFF, file[3] == 0xE0 {
            at = min(file.count, 4 + (Int(file[4]) << 8 | Int(file[5])))
        }
        return Array(file[..<at]) + segments + file[at...]
    }
}
