/// What a video stream's decoder configuration record (the container's `avcC`, `hvcC` or `av1C`,
/// FFmpeg's extradata) says of its samples before any frame is decoded: the profile, the bit depth
/// and the chroma sampling, as the pixel format a decoder will give. FFmpeg's streams and HEIF's
/// items carry the same records.
public struct CodecConfiguration: Equatable, Sendable {
    /// The profile as FFmpeg numbers it (`AVCodecParameters.profile`), for `avcodec_profile_name`.
    public var profile: Int32?
    public var bitDepth: Int
    /// 0 monochrome, 1 4:2:0, 2 4:2:2, 3 4:4:4 (H.264's and HEVC's chroma_format_idc).
    public var chromaFormat: Int

    /// FFmpeg's name of the pixel format its decoder gives for these samples (`yuv420p10le`).
    /// Depths and samplings decoders give (a record that says 15 bits states nothing).
    public var isPlausible: Bool { [8, 10, 12].contains(bitDepth) && (0...3).contains(chromaFormat) }

    public var pixelFormatName: String {
        let layout = ["gray", "yuv420p", "yuv422p", "yuv444p"][chromaFormat]
        return bitDepth == 8 ? layout : "\(layout)\(bitDepth)le"
    }

    /// H.264's `avcC`: profiles below High are 8-bit 4:2:0; High profiles state theirs in the
    /// record's extension, which some writers leave out (then High's own 8-bit 4:2:0, and the
    /// profile's where it has one depth).
    public static func avc(_ record: [UInt8]) -> CodecConfiguration? {
        guard record.count >= 7, record[0] == 1 else { return nil }
        let profile = Int(record[1]), constraints = record[2]
        // FFmpeg's numbering: profile_idc, with constrained baseline and the intra profiles flagged.
        var numbered = Int32(profile)
        if profile == 66 && constraints & 0x40 != 0 { numbered |= 1 << 9 }  // FF_PROFILE_H264_CONSTRAINED
        if [110, 122, 244].contains(profile) && constraints & 0x10 != 0 { numbered |= 1 << 11 }  // FF_PROFILE_H264_INTRA
        guard [100, 110, 122, 244, 44, 118, 128, 138, 139, 134, 135].contains(profile) else {
            return CodecConfiguration(profile: numbered, bitDepth: 8, chromaFormat: 1)
        }
        if var extended = avcExtension(record) {
            extended.profile = numbered
            return extended
        }
        switch profile {
        case 100: return CodecConfiguration(profile: numbered, bitDepth: 8, chromaFormat: 1)
        case 110: return CodecConfiguration(profile: numbered, bitDepth: 10, chromaFormat: 1)
        default: return nil
        }
    }

    /// The High profiles' chroma_format and bit depths after the parameter sets.
    private static func avcExtension(_ record: [UInt8]) -> CodecConfiguration? {
        var offset = 6
        let sequenceSets = Int(record[5] & 0x1F)
        for _ in 0..<sequenceSets {
            guard offset + 2 <= record.count else { return nil }
            offset += 2 + (Int(record[offset]) << 8 | Int(record[offset + 1]))
        }
        guard offset < record.count else { return nil }
        let pictureSets = Int(record[offset])
        offset += 1
        for _ in 0..<pictureSets {
            guard offset + 2 <= record.count else { return nil }
            offset += 2 + (Int(record[offset]) << 8 | Int(record[offset + 1]))
        }
        guard offset + 3 <= record.count else { return nil }
        return CodecConfiguration(bitDepth: Int(record[offset + 1] & 0x07) + 8, chromaFormat: Int(record[offset] & 0x03))
    }

    /// HEVC's `hvcC`: chromaFormat and bitDepthLumaMinus8 at fixed places.
    public static func hevc(_ record: [UInt8]) -> CodecConfiguration? {
        guard record.count >= 23, record[0] == 1 else { return nil }
        return CodecConfiguration(profile: Int32(record[1] & 0x1F), bitDepth: Int(record[17] & 0x07) + 8, chromaFormat: Int(record[16] & 0x03))
    }

    /// AV1's `av1C`: high_bitdepth, twelve_bit, monochrome and the subsampling flags.
    public static func av1(_ record: [UInt8]) -> CodecConfiguration? {
        guard record.count >= 4, record[0] == 0x81 else { return nil }
        let flags = record[2]
        let highBitDepth = flags & 0x40 != 0, twelveBit = flags & 0x20 != 0
        let depth = highBitDepth ? (twelveBit ? 12 : 10) : 8
        let profile = Int32(record[1] >> 5)
        if flags & 0x10 != 0 { return CodecConfiguration(profile: profile, bitDepth: depth, chromaFormat: 0) }
        let (x, y) = (flags & 0x08 != 0, flags & 0x04 != 0)
        return CodecConfiguration(profile: profile, bitDepth: depth, chromaFormat: x && y ? 1 : x ? 2 : 3)
    }
}
