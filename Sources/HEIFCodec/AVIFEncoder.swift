import CHeif
import Imaging

/// AVIF through libheif and its AV1 encoder (aom on Debian 12): the same encoder libvips uses,
/// chosen by measurement (docs/avif.md). Pixels are 8-bit RGB or RGBA, turned into 4:4:4 YCbCr
/// here by BT.601's matrix and tagged sRGB (BT.709 primaries, the sRGB transfer, BT.601's
/// matrix, full range: as libavif and libheif tag SDR pictures). Not 10-bit: Debian 12's libheif 1.15 gives
/// aom 10-bit pictures with the profile of 12-bit ones, and aom aborts the process; HDR goes
/// through FFmpeg instead (`HDRAVIFWriter`).
public struct AVIFEncoder: Sendable {
    /// libheif's quality, 0 to 100 (aom's quantiser, 63 to 0).
    public var quality: Int
    /// aom's speed (`cpu-used`), 0 (slowest, smallest) to 9.
    public var speed: Int
    /// aom's threads, 1 to 16.
    public var threads: Int

    public init(quality: Int, speed: Int, threads: Int) {
        self.quality = min(max(quality, 0), 100)
        self.speed = min(max(speed, 0), 9)
        self.threads = min(max(threads, 1), 16)
    }

    /// Pixels to encode: rows of `width` pixels of `channels` 8-bit samples (3 or 4), packed.
    public struct Pixels {
        public let width: Int
        public let height: Int
        public let channels: Int
        public let samples: UnsafeRawBufferPointer

        public init(width: Int, height: Int, channels: Int, samples: UnsafeRawBufferPointer) {
            precondition(channels == 3 || channels == 4)
            precondition(samples.count == width * height * channels)
            self.width = width
            self.height = height
            self.channels = channels
            self.samples = samples
        }
    }

    /// What is written beside the pixels.
    public struct Metadata {
        /// An ICC profile, in a `colr` box of its own beside the `nclx`.
        public var iccProfile: [UInt8]?
        /// A TIFF-headed EXIF block.
        public var exif: [UInt8]?
        public var xmp: [UInt8]?
        /// EXIF's orientation of the pixels (1 to 8), written as HEIF's `irot` and `imir`, which
        /// is what readers apply.
        public var orientation: Int

        public init(iccProfile: [UInt8]? = nil, exif: [UInt8]? = nil, xmp: [UInt8]? = nil, orientation: Int = 1) {
            self.iccProfile = iccProfile
            self.exif = exif
            self.xmp = xmp
            self.orientation = orientation
        }
    }

    /// aom's quantiser for `quality`, as libheif maps one onto the other (for an encoder that
    /// drives aom without libheif: `HDRAVIFWriter`).
    public var quantiser: Int { ((100 - quality) * 63 + 50) / 100 }

    /// The largest picture written: aom 3.6.0, Debian 12's, encodes larger ones wrongly (libheif
    /// 1.17 refuses them for this reason: 8192x4352 pixels, at most twice that a side). Every
    /// AVIF goes through aom, with libheif or FFmpeg: checked once, before either.
    public static func refuseLargerThanAomEncodes(width: Int, height: Int) throws(HEIFError) {
        if width * height > 8192 * 4352 || width > 8192 * 2 || height > 4352 * 2 {
            throw .tooLargeToEncode(width: width, height: height)
        }
    }

    /// The bytes of an AVIF file holding `pixels`.
    public func encode(_ pixels: Pixels, metadata: Metadata) throws(HEIFError) -> [UInt8] {
        guard let context = heif_context_alloc() else { throw .library(message: "libheif could not allocate a context") }
        defer { heif_context_free(context) }
        var encoder: OpaquePointer?
        try check(heif_context_get_encoder_for_format(context, heif_compression_AV1, &encoder), "finding libheif's AV1 encoder")
        guard let encoder else { throw .library(message: "libheif has no AV1 encoder") }
        defer { heif_encoder_release(encoder) }
        try check(heif_encoder_set_lossy_quality(encoder, Int32(quality)), "setting the quality")
        try check(heif_encoder_set_parameter_integer(encoder, "speed", Int32(speed)), "setting aom's speed")
        try check(heif_encoder_set_parameter_integer(encoder, "threads", Int32(threads)), "setting aom's threads")
        // 4:4:4, as sharp writes AVIF: on real photos it gave 1.5 dB more than 4:2:0 at as many
        // bytes, and a small picture's colour 8 dB more (docs/avif.md).
        try check(heif_encoder_set_parameter_string(encoder, "chroma", "444"), "setting 4:4:4")

        let image = try makeImage(pixels)
        defer { heif_image_release(image) }
        guard let nclx = heif_nclx_color_profile_alloc() else { throw .library(message: "libheif could not allocate a colour profile") }
        defer { heif_nclx_color_profile_free(nclx) }
        nclx.pointee.color_primaries = heif_color_primaries_ITU_R_BT_709_5
        nclx.pointee.transfer_characteristics = heif_transfer_characteristic_IEC_61966_2_1
        nclx.pointee.matrix_coefficients = heif_matrix_coefficients_ITU_R_BT_601_6
        nclx.pointee.full_range_flag = 1
        try check(heif_image_set_nclx_color_profile(image, nclx), "tagging the colours")
        if let profile = metadata.iccProfile {
            try check(profile.withUnsafeBytes { heif_image_set_raw_color_profile(image, "prof", $0.baseAddress, $0.count) }, "adding the ICC profile")
        }

        guard let options = heif_encoding_options_alloc() else { throw .library(message: "libheif could not allocate options") }
        defer { heif_encoding_options_free(options) }
        options.pointee.save_alpha_channel = 1
        // Both boxes where there is a profile: the nclx still says which matrix the YCbCr is in.
        options.pointee.save_two_colr_boxes_when_ICC_and_nclx_available = 1
        options.pointee.output_nclx_profile = nclx
        options.pointee.macOS_compatibility_workaround_no_nclx_profile = 0
        options.pointee.image_orientation = heif_orientation(UInt32(min(max(metadata.orientation, 1), 8)))
        var handle: OpaquePointer?
        try check(heif_context_encode_image(context, image, encoder, options, &handle), "encoding")
        defer { if let handle { heif_image_handle_release(handle) } }
        if let exif = metadata.exif {
            try check(exif.withUnsafeBytes { heif_context_add_exif_metadata(context, handle, $0.baseAddress, Int32($0.count)) }, "adding EXIF")
        }
        if let xmp = metadata.xmp {
            try check(xmp.withUnsafeBytes { heif_context_add_XMP_metadata(context, handle, $0.baseAddress, Int32($0.count)) }, "adding XMP")
        }
        return try write(context)
    }

    /// A libheif image of `pixels` in 8-bit 4:4:4 YCbCr, full range, by BT.601's matrix, made
    /// here so that libheif has nothing to convert.
    private func makeImage(_ pixels: Pixels) throws(HEIFError) -> OpaquePointer {
        var created: OpaquePointer?
        try check(heif_image_create(Int32(pixels.width), Int32(pixels.height), heif_colorspace_YCbCr, heif_chroma_444, &created), "making the image")
        guard let image = created else { throw .library(message: "libheif made no image") }
        do throws(HEIFError) {
            func plane(_ channel: heif_channel) throws(HEIFError) -> (UnsafeMutablePointer<UInt8>, Int) {
                try check(heif_image_add_plane(image, channel, Int32(pixels.width), Int32(pixels.height), 8), "adding a plane")
                var stride: Int32 = 0
                guard let start = heif_image_get_plane(image, channel, &stride) else { throw .library(message: "libheif gave no plane") }
                return (start, Int(stride))
            }
            let (width, height, channels) = (pixels.width, pixels.height, pixels.channels)
            let (luma, lumaStride) = try plane(heif_channel_Y)
            let (cb, cbStride) = try plane(heif_channel_Cb)
            let (cr, crStride) = try plane(heif_channel_Cr)
            let alpha = channels == 4 ? try plane(heif_channel_Alpha) : nil
            let samples = pixels.samples.assumingMemoryBound(to: UInt8.self)
            @inline(__always) func byte(_ value: Double) -> UInt8 { UInt8(min(max(value + 0.5, 0), 255)) }
            for y in 0..<height {
                for x in 0..<width {
                    let at = (y * width + x) * channels
                    let coded = YCbCrMatrix.bt601.fullRange(red: Double(samples[at]), green: Double(samples[at + 1]), blue: Double(samples[at + 2]))
                    luma[y * lumaStride + x] = byte(coded.luma)
                    cb[y * cbStride + x] = byte(coded.cb + 128)
                    cr[y * crStride + x] = byte(coded.cr + 128)
                    if let (plane, stride) = alpha { plane[y * stride + x] = samples[at + 3] }
                }
            }
        } catch {
            heif_image_release(image)
            throw error
        }
        return image
    }

    /// The file libheif assembles, gathered in memory.
    private func write(_ context: OpaquePointer) throws(HEIFError) -> [UInt8] {
        final class Gathered { var bytes: [UInt8] = [] }
        let gathered = Gathered()
        var writer = heif_writer()
        writer.writer_api_version = 1
        writer.write = { _, data, size, userdata in
            let gathered = Unmanaged<Gathered>.fromOpaque(userdata!).takeUnretainedValue()
            gathered.bytes.append(contentsOf: UnsafeRawBufferPointer(start: data, count: size))
            return heif_error(code: heif_error_Ok, subcode: heif_suberror_Unspecified, message: AVIFEncoder.noMessage)
        }
        try withExtendedLifetime(gathered) { () throws(HEIFError) in
            try check(heif_context_write(context, &writer, Unmanaged.passUnretained(gathered).toOpaque()), "writing the file")
        }
        return gathered.bytes
    }

    /// The message of a write that succeeded: a C string that lives as long as the program.
    private static var noMessage: UnsafePointer<CChar> { UnsafeRawPointer(("" as StaticString).utf8Start).assumingMemoryBound(to: CChar.self) }

    private func check(_ error: heif_error, _ doing: String) throws(HEIFError) {
        guard error.code != heif_error_Ok else { return }
        let message = error.message.map { String(cString: $0) } ?? "error \(error.code.rawValue)"
        throw .encoding("\(doing): \(message)")
    }
}
