import CHeif
import CHeifShim
import FileIO
import Reporting

/// Pixels libheif decoded: 8-bit or 16-bit (big-endian, full range) RGB or RGBA, rows packed.
public struct HEIFPixels: Sendable {
    public let width: Int
    public let height: Int
    public let channels: Int
    public let bytesPerSample: Int
    public let bytes: [UInt8]
}

/// A HEIF (HEIC, AVIF) file opened through libheif, read through the open input (pread), never by
/// name: its primary image's size, depth, alpha, colour profile and metadata, and its decoding.
public final class HEIFDecoder {
    private let context: OpaquePointer
    private let handle: OpaquePointer
    private let source: ReaderSource?
    /// libheif keeps the reader and reads item data through it until the context is freed.
    private let reader: UnsafeMutablePointer<heif_reader>
    /// The displayed size: after the file's rotation, mirror and clean aperture.
    public let width: Int
    public let height: Int
    public let hasAlpha: Bool
    /// Bits per luma sample: 8, 10 or 12.
    public let bitDepth: Int
    /// The item libheif takes for the primary image: the `pitm` item, or, where that is a
    /// thumbnail or hidden, the first top-level image.
    public let primaryID: UInt32

    /// Opens `file` and its primary image; over `maxPixels` (by the coded size) is refused by libheif too.
    public convenience init(file: InputFile, maxPixels: Int) throws(HEIFError) {
        let source = ReaderSource(file: file)
        try self.init(source: source, maxPixels: maxPixels) { context, reader, userdata in
            heif_context_read_from_reader(context, reader, userdata, nil)
        }
    }

    /// Opens a whole HEIF file held in `bytes` (kept alive by the caller while this lives).
    public convenience init(bytes: UnsafeRawBufferPointer, maxPixels: Int) throws(HEIFError) {
        try self.init(source: nil, maxPixels: maxPixels) { context, _, _ in
            heif_context_read_from_memory_without_copy(context, bytes.baseAddress, bytes.count, nil)
        }
    }

    /// libde265 and dav1d print to standard error from inside libheif's own decoder plugins:
    /// mediatool's (CHeifShim) take their place, and tell their reasons to LibraryMessages.
    private static let decodersRegistered: Void = mt_heif_register_decoders { library, message in
        LibraryMessages.record(library.map { String(cString: $0) } ?? "decoder", message.map { String(cString: $0) } ?? "")
    }

    /// Registers the decoders now rather than at the first picture: a sandboxed worker does, while
    /// it may still load what libheif loads.
    public static func prepare() {
        Self.decodersRegistered
        heif_context_free(heif_context_alloc())
    }

    private init(source: ReaderSource?, maxPixels: Int,
                 read: (OpaquePointer, UnsafePointer<heif_reader>, UnsafeMutableRawPointer?) -> heif_error) throws(HEIFError) {
        Self.decodersRegistered
        guard let context = heif_context_alloc() else { throw .library(message: "out of memory") }
        self.source = source
        let reader = UnsafeMutablePointer<heif_reader>.allocate(capacity: 1)
        reader.initialize(to: ReaderSource.callbacks)
        self.reader = reader
        // libheif's own limit is on width and height each (of what `ispe` states); the caller checks the area.
        heif_context_set_maximum_image_size_limit(context, Int32(clamping: min(maxPixels, 1 << 16)))
        heif_context_set_max_decoding_threads(context, 1)
        let userdata = source.map { Unmanaged.passUnretained($0).toOpaque() }
        let opened = read(context, reader, userdata)
        guard opened.code == heif_error_Ok else {
            // The message lives in the context: read before it is freed.
            let message = Self.text(opened)
            heif_context_free(context)
            reader.deallocate()
            throw .library(message: message)
        }
        var primary: OpaquePointer?
        let found = heif_context_get_primary_image_handle(context, &primary)
        guard found.code == heif_error_Ok, let primary else {
            let message = Self.text(found)
            heif_context_free(context)
            reader.deallocate()
            throw .library(message: message)
        }
        self.context = context
        handle = primary
        var primaryID: heif_item_id = 0
        _ = heif_context_get_primary_image_ID(context, &primaryID)
        self.primaryID = primaryID
        width = Int(heif_image_handle_get_width(primary))
        height = Int(heif_image_handle_get_height(primary))
        hasAlpha = heif_image_handle_has_alpha_channel(primary) != 0
        bitDepth = Int(heif_image_handle_get_luma_bits_per_pixel(primary))
    }

    deinit {
        heif_image_handle_release(handle)
        heif_context_free(context)
        reader.deallocate()
    }

    /// The primary image's coding-independent code points (its `colr` nclx box: primaries, transfer,
    /// matrix, full range, as ITU-T H.273 numbers them); nil where it has none.
    public var codePoints: [UInt8]? {
        var profile: UnsafeMutablePointer<heif_color_profile_nclx>?
        let status = heif_image_handle_get_nclx_color_profile(handle, &profile)
        // libheif 1.15 hands over the profile it made even where it then refuses its values (the fuzzer's find).
        defer { if let profile { heif_nclx_color_profile_free(profile) } }
        guard status.code == heif_error_Ok, let profile else { return nil }
        let nclx = profile.pointee
        return [UInt8(clamping: nclx.color_primaries.rawValue), UInt8(clamping: nclx.transfer_characteristics.rawValue),
                UInt8(clamping: nclx.matrix_coefficients.rawValue), nclx.full_range_flag != 0 ? 1 : 0]
    }

    /// The primary image's thumbnails (`thmb` items), by their displayed size (their own rotation
    /// and mirror applied), as libheif lists them.
    public var thumbnails: [(id: UInt32, width: Int, height: Int)] {
        let count = Int(heif_image_handle_get_number_of_thumbnails(handle))
        guard count > 0 else { return [] }
        var ids = [heif_item_id](repeating: 0, count: count)
        let listed = Int(heif_image_handle_get_list_of_thumbnail_IDs(handle, &ids, Int32(count)))
        return ids.prefix(listed).compactMap { id in
            var thumbnail: OpaquePointer?
            guard heif_image_handle_get_thumbnail(handle, id, &thumbnail).code == heif_error_Ok, let thumbnail else { return nil }
            defer { heif_image_handle_release(thumbnail) }
            return (id, Int(heif_image_handle_get_width(thumbnail)), Int(heif_image_handle_get_height(thumbnail)))
        }
    }

    /// A thumbnail, as displayed (its rotation and mirror applied), as 8-bit RGB or RGBA.
    public func decodeThumbnail(id: UInt32) throws(HEIFError) -> HEIFPixels {
        var thumbnail: OpaquePointer?
        let found = heif_image_handle_get_thumbnail(handle, id, &thumbnail)
        guard found.code == heif_error_Ok, let thumbnail else { throw .library(message: Self.text(found)) }
        defer { heif_image_handle_release(thumbnail) }
        let alpha = heif_image_handle_has_alpha_channel(thumbnail) != 0
        let image = try decodedImage(of: thumbnail, heif_colorspace_RGB, alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB,
                                     appliesTransforms: true)
        defer { heif_image_release(image) }
        let width = Int(heif_image_get_width(image, heif_channel_interleaved))
        let height = Int(heif_image_get_height(image, heif_channel_interleaved))
        var stride: Int32 = 0
        guard width > 0, height > 0, let plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride) else {
            throw .library(message: "the decoded thumbnail has no pixels")
        }
        let channels = alpha ? 4 : 3
        let rowBytes = width * channels
        var bytes = [UInt8](repeating: 0, count: rowBytes * height)
        bytes.withUnsafeMutableBufferPointer { destination in
            for row in 0..<height { (destination.baseAddress! + row * rowBytes).update(from: plane + row * Int(stride), count: rowBytes) }
        }
        return HEIFPixels(width: width, height: height, channels: channels, bytesPerSample: 1, bytes: bytes)
    }

    /// The ICC profile (`prof` or `rICC`), if the image has one.
    public var iccProfile: [UInt8]? {
        let type = heif_image_handle_get_color_profile_type(handle)
        guard type == heif_color_profile_type_prof || type == heif_color_profile_type_rICC else { return nil }
        let size = heif_image_handle_get_raw_color_profile_size(handle)
        guard size > 0 else { return nil }
        var profile = [UInt8](repeating: 0, count: size)
        let status = profile.withUnsafeMutableBytes { heif_image_handle_get_raw_color_profile(handle, $0.baseAddress) }
        return status.code == heif_error_Ok ? profile : nil
    }

    /// The TIFF block of the image's EXIF item (its 4-byte offset to the TIFF header followed).
    public var exif: [UInt8]? {
        metadata(type: "Exif").flatMap(HEIFContainer.tiffBlock(ofExifItem:))
    }

    /// The XMP packet of the image's `mime` item of type application/rdf+xml.
    public var xmp: [UInt8]? { metadata(type: "mime", contentType: "application/rdf+xml") }

    private func metadata(type: String, contentType: String? = nil) -> [UInt8]? {
        let count = Int(heif_image_handle_get_number_of_metadata_blocks(handle, type))
        guard count > 0 else { return nil }
        var ids = [heif_item_id](repeating: 0, count: count)
        let listed = Int(heif_image_handle_get_list_of_metadata_block_IDs(handle, type, &ids, Int32(count)))
        for id in ids.prefix(listed) {
            if let contentType, String(cString: heif_image_handle_get_metadata_content_type(handle, id)) != contentType { continue }
            let size = heif_image_handle_get_metadata_size(handle, id)
            guard size > 0, size <= 64 << 20 else { continue }
            var bytes = [UInt8](repeating: 0, count: size)
            let status = bytes.withUnsafeMutableBytes { heif_image_handle_get_metadata(handle, id, $0.baseAddress) }
            if status.code == heif_error_Ok { return bytes }
        }
        return nil
    }

    /// The primary image decoded whole to RGB(A): with the file's transforms applied, or as coded
    /// (`appliesTransforms` false: rotation, mirror and clean aperture left to the caller).
    /// A monochrome image (`monochrome`) comes out gray, or gray and alpha. `limitedRangeAlpha`:
    /// the alpha image is coded in limited range (HEIFContainer.isLimitedRange), which libheif 1.15
    /// passes on as coded: it is expanded to the full range here.
    public func decode(appliesTransforms: Bool, monochrome: Bool = false, limitedRangeAlpha: Bool = false) throws(HEIFError) -> HEIFPixels {
        if monochrome { return try decodeGray(appliesTransforms: appliesTransforms, limitedRangeAlpha: limitedRangeAlpha) }
        let deep = bitDepth > 8
        let chroma: heif_chroma = hasAlpha ? (deep ? heif_chroma_interleaved_RRGGBBAA_BE : heif_chroma_interleaved_RGBA)
                                           : (deep ? heif_chroma_interleaved_RRGGBB_BE : heif_chroma_interleaved_RGB)
        let image = try decodedImage(heif_colorspace_RGB, chroma, appliesTransforms: appliesTransforms)
        defer { heif_image_release(image) }
        let width = Int(heif_image_get_width(image, heif_channel_interleaved))
        let height = Int(heif_image_get_height(image, heif_channel_interleaved))
        let bits = Int(heif_image_get_bits_per_pixel_range(image, heif_channel_interleaved))
        var stride: Int32 = 0
        guard width > 0, height > 0, let plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride) else {
            throw .library(message: "the decoded image has no pixels")
        }
        let channels = hasAlpha ? 4 : 3
        let bytesPerSample = deep ? 2 : 1
        let rowBytes = width * channels * bytesPerSample
        var bytes = [UInt8](repeating: 0, count: rowBytes * height)
        bytes.withUnsafeMutableBufferPointer { destination in
            for row in 0..<height {
                let source = plane + row * Int(stride)
                let target = destination.baseAddress! + row * rowBytes
                target.update(from: source, count: rowBytes)
                if limitedRangeAlpha && hasAlpha {
                    for pixel in 0..<width {
                        if deep {
                            let at = (pixel * 4 + 3) * 2
                            let alpha = Self.expandLimited(Int(target[at]) << 8 | Int(target[at + 1]), bits: bits)
                            target[at] = UInt8(alpha >> 8)
                            target[at + 1] = UInt8(alpha & 0xFF)
                        } else {
                            target[pixel * 4 + 3] = UInt8(Self.expandLimited(Int(target[pixel * 4 + 3]), bits: 8))
                        }
                    }
                }
                // 10 and 12-bit samples to the full 16-bit range: the top bits repeated below.
                if deep && bits < 16 {
                    for sample in 0..<(rowBytes / 2) {
                        let value = Int(target[2 * sample]) << 8 | Int(target[2 * sample + 1])
                        let wide = value << (16 - bits) | value >> (2 * bits - 16)
                        target[2 * sample] = UInt8(wide >> 8)
                        target[2 * sample + 1] = UInt8(wide & 0xFF)
                    }
                }
            }
        }
        return HEIFPixels(width: width, height: height, channels: channels, bytesPerSample: bytesPerSample, bytes: bytes)
    }

    /// The luma plane (and alpha plane) of a monochrome image, interleaved, 16-bit samples widened
    /// to the full range and big-endian.
    private func decodeGray(appliesTransforms: Bool, limitedRangeAlpha: Bool) throws(HEIFError) -> HEIFPixels {
        let image = try decodedImage(heif_colorspace_monochrome, heif_chroma_monochrome, appliesTransforms: appliesTransforms)
        defer { heif_image_release(image) }
        let width = Int(heif_image_get_width(image, heif_channel_Y))
        let height = Int(heif_image_get_height(image, heif_channel_Y))
        let bits = Int(heif_image_get_bits_per_pixel_range(image, heif_channel_Y))
        var lumaStride: Int32 = 0, alphaStride: Int32 = 0
        guard width > 0, height > 0, let luma = heif_image_get_plane_readonly(image, heif_channel_Y, &lumaStride) else {
            throw .library(message: "the decoded image has no pixels")
        }
        let alpha = hasAlpha ? heif_image_get_plane_readonly(image, heif_channel_Alpha, &alphaStride) : nil
        let channels = alpha == nil ? 1 : 2
        let deep = bits > 8
        let bytesPerSample = deep ? 2 : 1
        var bytes = [UInt8](repeating: 0, count: width * height * channels * bytesPerSample)
        func value(_ plane: UnsafePointer<UInt8>, _ stride: Int32, _ x: Int, _ y: Int) -> Int {
            let row = UnsafeRawPointer(plane + y * Int(stride))
            return deep ? Int(row.loadUnaligned(fromByteOffset: 2 * x, as: UInt16.self)) : Int(row.load(fromByteOffset: x, as: UInt8.self))
        }
        var at = 0
        func put(_ sample: Int) {
            if deep {
                let wide = sample << (16 - bits) | sample >> (2 * bits - 16)
                bytes[at] = UInt8(wide >> 8 & 0xFF)
                bytes[at + 1] = UInt8(wide & 0xFF)
                at += 2
            } else {
                bytes[at] = UInt8(sample)
                at += 1
            }
        }
        for y in 0..<height {
            for x in 0..<width {
                put(value(luma, lumaStride, x, y))
                if let alpha {
                    let sample = value(alpha, alphaStride, x, y)
                    put(limitedRangeAlpha ? Self.expandLimited(sample, bits: bits) : sample)
                }
            }
        }
        return HEIFPixels(width: width, height: height, channels: channels, bytesPerSample: bytesPerSample, bytes: bytes)
    }

    /// A limited-range sample (16 to 235, times 2^(bits-8)) in the full range 0 to 2^bits - 1,
    /// rounded, and clamped where a coder went outside the range.
    static func expandLimited(_ value: Int, bits: Int) -> Int {
        let black = 16 << (bits - 8), span = 219 << (bits - 8), full = (1 << bits) - 1
        return min(full, max(0, ((value - black) * full * 2 + span) / (2 * span)))
    }

    /// The primary image decoded by libheif in `colorspace` and `chroma`; the caller releases it.
    private func decodedImage(_ colorspace: heif_colorspace, _ chroma: heif_chroma, appliesTransforms: Bool) throws(HEIFError) -> OpaquePointer {
        try decodedImage(of: handle, colorspace, chroma, appliesTransforms: appliesTransforms)
    }

    /// An image of the file (the primary's, or a thumbnail's) decoded; the decoder's own reason when it fails.
    private func decodedImage(of handle: OpaquePointer, _ colorspace: heif_colorspace, _ chroma: heif_chroma,
                              appliesTransforms: Bool) throws(HEIFError) -> OpaquePointer {
        guard let options = heif_decoding_options_alloc() else { throw .library(message: "out of memory") }
        defer { heif_decoding_options_free(options) }
        options.pointee.ignore_transformations = appliesTransforms ? 0 : 1
        var image: OpaquePointer?
        LibraryMessages.clear()
        mt_heif_limit_pictures(Int(heif_image_handle_get_ispe_width(handle)), Int(heif_image_handle_get_ispe_height(handle)))
        let decoded = heif_decode_image(handle, &image, colorspace, chroma, options)
        mt_heif_limit_pictures(0, 0)
        guard decoded.code == heif_error_Ok, let image else {
            // The decoder's own reason says more than libheif's "Decoder plugin generated an error".
            if let reason = LibraryMessages.take() { throw .decoding(reason) }
            throw .library(message: Self.text(decoded))
        }
        return image
    }

    static func text(_ error: heif_error) -> String {
        var text = error.message.map { String(cString: $0) } ?? "error \(error.code.rawValue)"
        while text.last?.isWhitespace == true { text.removeLast() }
        return text
    }
}

/// The libheif reader over an open input: reads by pread at a position of its own.
private final class ReaderSource {
    let file: InputFile
    var position: Int64 = 0

    init(file: InputFile) {
        self.file = file
    }

    static func from(_ userdata: UnsafeMutableRawPointer?) -> ReaderSource {
        Unmanaged<ReaderSource>.fromOpaque(userdata!).takeUnretainedValue()
    }

    static let callbacks = heif_reader(
        reader_api_version: 1,
        get_position: { userdata in ReaderSource.from(userdata).position },
        read: { data, size, userdata in
            let source = ReaderSource.from(userdata)
            // libheif reads nothing into no buffer (an empty box's payload): that succeeds.
            if size == 0 { return 0 }
            guard let data, let got = try? source.file.read(at: Int(source.position), into: UnsafeMutableRawBufferPointer(start: data, count: size)),
                  got == size else { return 1 }
            source.position += Int64(size)
            return 0
        },
        seek: { position, userdata in
            let source = ReaderSource.from(userdata)
            guard position >= 0, position <= Int64(source.file.size ?? 0) else { return 1 }
            source.position = position
            return 0
        },
        wait_for_file_size: { target, userdata in
            target <= Int64(ReaderSource.from(userdata).file.size ?? 0) ? heif_reader_grow_status_size_reached : heif_reader_grow_status_size_beyond_eof
        }
    )
}

/// The libheif the tool runs with.
public enum HEIFLibrary {
    public static var version: LibraryVersion {
        LibraryVersion(name: "libheif", version: String(cString: heif_get_version()))
    }
}
