import Batch
import BinaryArrays
import FFmpeg
import Glibc
import ImageCropping
import Imaging
import JPEGCodec
import FileIO
import ImageCodecs
import PNGCodec
import VideoThumbnails
import JSON
import MetadataStripping
import MediaProbe
import Previews
import NumberText
import Sandbox
import Jobs
import Ingest

/// The fuzz targets, by name. Each takes arbitrary bytes and must neither crash, hang nor leak;
/// errors thrown are the expected answer to most inputs.
enum FuzzTargets {
    static let all: [String: @Sendable ([UInt8]) -> Void] = [
        "exif": fuzzExif,
        "png": fuzzPNG,
        "jpeg": fuzzJPEG,
        "jpeg-split": fuzzSplitScan,
        "heif": fuzzPicture,
        "webp": fuzzPicture,
        "tiff": fuzzPicture,
        "doubles": fuzzDoubles,
        "arguments": fuzzArguments,
        "video": fuzzVideo,
        "probe": fuzzProbe,
        "wire": fuzzWire,
        "recipe": fuzzRecipe,
        "strip": fuzzStrip,
    ]

    /// strip's whole path from a file: the container told, its metadata structures read and
    /// scrubbed, the edits applied while the file is copied (to /dev/null). Edits never claim one
    /// byte twice (the write refuses), and every group is removed, so every scrubber runs. And
    /// probe's reading of the same metadata where it lies: a Live Photo's still time, a moving camera's position.
    static func fuzzStrip(_ bytes: [UInt8]) {
        let path = ScratchFile.write(bytes)
        guard let file = try? InputFile(path: path) else { return }
        if let seconds = TimedMetadata.stillImageTime(in: file) { precondition(seconds.isFinite && seconds >= 0) }
        _ = TimedMetadata.firstPosition(in: file)
        guard let edits = try? MetadataStripper(removing: Set(StripGroup.allCases)).edits(for: file) else { return }
        _ = try? edits.write(file, size: bytes.count, to: ScratchFile.nullDevice, target: "/dev/null")
        precondition(bytes.count + edits.sizeChange >= 0)
    }

    /// An ingest recipe: JSON text read by mediatool's own reader, then checked key by key. A
    /// recipe read is one whose every output has a name of its own, its value written as JSON
    /// and read back the same; anything else is one error.
    static func fuzzRecipe(_ bytes: [UInt8]) {
        if let value = try? JSONTextParser.parse(bytes) {
            precondition((try? JSONTextParser.parse(Array(value.text.utf8))) != nil, "what the writer wrote reads back")
        }
        guard let recipe = try? IngestRecipe.read(bytes) else { return }
        let templates = recipe.outputs.map(\.template)
        precondition(Set(templates).count == templates.count, "two outputs of one name")
        precondition(recipe.renditions.count <= IngestRecipe.mostRenditions)
        _ = recipe.leastMemory
    }

    /// What either side of a worker's socket reads: the parent a worker's messages (which it trusts
    /// no more than a file), the worker a job's spec. A message read is written and read again the
    /// same; a job's spec decodes into a job or throws.
    static func fuzzWire(_ bytes: [UInt8]) {
        guard let message = WireMessage(bytes: bytes) else { return }
        precondition(WireMessage(bytes: message.bytes) != nil)
        if case .job(_, _, _, let threads, let spec) = message, let job = try? JSONValueDecoder.decode(JobSpec.self, from: spec) {
            _ = job.job(threads: threads)
        }
    }

    /// Pictures and frames above this are not decoded: the fuzzer would spend its time in memset.
    static let pixelLimit = 1 << 22

    static func fuzzExif(_ bytes: [UInt8]) {
        _ = try? ExifOrientation.read(tiff: bytes)
        // What probe reads of it: dates, texts, rationals, the GPS directory, the thumbnail's frame header.
        guard let block = ExifBlock(bytes) else { return }
        _ = block.capture
        _ = block.thumbnailSize
    }

    /// probe's whole path from a file: a picture's header by its reader, or FFmpeg's header and
    /// index, the configuration records, the tags, ISO 6709; then --deep's decoding.
    static func fuzzProbe(_ bytes: [UInt8]) {
        let path = ScratchFile.write(bytes)
        guard let file = try? InputFile(path: path) else { return }
        var options = ProbeOptions()
        options.limits = DecodeLimits(maxPixels: pixelLimit, maxMemory: 1 << 28)
        options.threads = 1
        _ = try? Prober(options: options).probe(file)
        options.deep = true
        _ = try? Prober(options: options).probe(file)
    }

    static func fuzzPNG(_ bytes: [UInt8]) {
        let path = ScratchFile.write(bytes)
        guard let file = try? InputFile(path: path), let chunks = try? PNGChunks.scan(file: file) else { return }
        _ = try? chunks.verifyChecksums(file: file)
        guard chunks.width > 0, chunks.height > 0, !chunks.width.multipliedReportingOverflow(by: chunks.height).overflow,
              chunks.width * chunks.height <= pixelLimit, let decoder = try? PNGDecoder(file: file) else { return }
        _ = try? decoder.readRegion(x: 0, y: 0, columns: decoder.width, rows: decoder.height)
        cropWholePicture(path: path)
        thumbnailsOfPicture(path: path, bytes: bytes)
    }

    static func fuzzJPEG(_ bytes: [UInt8]) {
        let path = ScratchFile.write(bytes)
        guard let file = try? InputFile(path: path), let decoder = try? JPEGDecoder(file: file), decoder.width > 0, decoder.height > 0,
              decoder.width * decoder.height <= pixelLimit else { return }
        // A region off the block grid exercises jpeg_crop_scanline and jpeg_skip_scanlines.
        let x = decoder.width / 3, y = decoder.height / 3
        _ = try? decoder.readRegion(x: x, y: y, columns: max(1, decoder.width - x - 1), rows: max(1, decoder.height - y - 1))
        cropWholePicture(path: path)
        // Without decoding: TurboJPEG's transform, the frame header cut short, metadata segments.
        cropWholePicture(path: path, losslessJPEG: true)
        thumbnailsOfPicture(path: path, bytes: bytes)
    }

    /// A JPEG decoded by libjpeg-turbo's own Huffman decoder and by the split scan (from any place,
    /// on two threads), at 1/1 and 1/8: the same pixels, or the same error; where libjpeg-turbo's
    /// fast path passes a code of more than 16 bits silently, the split decoder's bad Huffman code.
    /// Fill bytes before a stuffed zero (FF FF 00, which the standard does not allow) make
    /// libjpeg-turbo's fast path give up an MCU, and its slow path decode it again into blocks it
    /// does not clear: there only success or failure must agree (docs/thumbnail.md).
    static func fuzzSplitScan(_ bytes: [UInt8]) {
        let path = ScratchFile.write(bytes)
        guard let file = try? InputFile(path: path), let probe = try? JPEGDecoder(file: file), probe.width > 0, probe.height > 0,
              probe.width * probe.height <= pixelLimit, !probe.isCMYK else { return }
        func decode(_ denominator: Int, _ split: SplitScan?) -> Result<[UInt8], JPEGError> {
            Result { () throws(JPEGError) -> [UInt8] in
                let decoder = try JPEGDecoder(file: file)
                var pixels: [UInt8] = []
                try decoder.readScaled(denominator: denominator, bandRows: 16, splitScan: split) { bytes, _ in
                    pixels.append(contentsOf: bytes)
                }
                return pixels
            }
        }
        let share = 0.1 + Double(bytes.count % 9) / 10
        for denominator in [1, 8] {
            let expected = decode(denominator, nil)
            let found = decode(denominator, SplitScan(tailShare: share, minimumBytes: 0))
            switch (expected, found) {
            case let (.success(pixels), .success(splitPixels)):
                precondition(pixels == splitPixels || hasFillBeforeStuffedZero(bytes), "the split scan's pixels differ from libjpeg's")
            case let (.failure(error), .failure(splitError)):
                precondition("\(error)" == "\(splitError)" || "\(splitError)".contains("bad Huffman code"),
                             "libjpeg: \(error); the split scan: \(splitError)")
            case let (.success, .failure(splitError)):
                precondition("\(splitError)".contains("bad Huffman code"), "only the split scan failed: \(splitError)")
            case let (.failure(error), .success):
                preconditionFailure("only libjpeg failed: \(error)")
            }
        }
    }

    /// Whether FF FF (any more FF) 00 appears.
    private static func hasFillBeforeStuffedZero(_ bytes: [UInt8]) -> Bool {
        var fills = 0
        for byte in bytes {
            if byte == 0xFF {
                fills += 1
            } else {
                if byte == 0 && fills >= 2 { return true }
                fills = 0
            }
        }
        return false
    }

    /// HEIF: the container walk, the grid, each tile's own file, libheif's decoding, the crop.
    /// WebP: the chunk walk, libwebp's cropped decoding, animations. TIFF: libtiff's directories,
    /// strips and tiles, and the sample conversion. The crop job does it all.
    static func fuzzPicture(_ bytes: [UInt8]) {
        let path = ScratchFile.write(bytes)
        cropWholePicture(path: path)
        thumbnailsOfPicture(path: path, bytes: bytes)
    }

    /// The thumbnail job on a picture: shrink-on-load (JPEG's scaled decoding, WebP's, a HEIF's
    /// thumbnail item), rows streamed in bands to resamplers on their own threads, a fill and its
    /// attention crop, colour converted through whatever profile the file carries.
    private static func thumbnailsOfPicture(path: String, bytes: [UInt8]) {
        // What is no picture would go to FFmpeg, which the video target covers.
        guard PictureFormat.identify(Array(bytes.prefix(12))) != nil else { return }
        var options = ThumbnailOptions()
        options.sizes = [ThumbnailSize(width: 24, height: 24), ThumbnailSize(width: 7, height: nil)]
        options.fill = .attention
        options.convertsToSRGB = true
        options.output = OutputPolicy(overwrite: true)
        options.limits = DecodeLimits(maxPixels: pixelLimit, maxMemory: 1 << 28)
        options.threads = 2
        let outputs = [PlannedOutput(variant: "24", path: ScratchFile.outputPath), PlannedOutput(variant: "7x", path: ScratchFile.secondOutputPath)]
        _ = try? Thumbnailer(options: options).job.run(input: path, outputs: outputs)
    }

    /// The whole crop job, EXIF orientation, colour chunks and PNG writing included.
    private static func cropWholePicture(path: String, losslessJPEG: Bool = false) {
        var options = CropOptions(rect: .displayed(FractionalRect(x: losslessJPEG ? 17.5 : 1.5, y: 0.5, width: 1e6, height: 1e6)))
        if losslessJPEG {
            options.format = .jpeg
            options.losslessJPEG = .expand
        }
        options.clamps = true
        options.output = OutputPolicy(overwrite: true)
        options.maxPixels = pixelLimit
        _ = try? Cropper(options: options).crop(path, to: ScratchFile.outputPath)
    }

    /// The first bytes choose the options; the rest is the data, as a file and as text.
    static func fuzzDoubles(_ bytes: [UInt8]) {
        guard bytes.count >= 4 else { return }
        let flags = bytes[0], columns = Int(bytes[1] % 8) + 1
        let options = ArrayDumpOptions(
            record: RecordLayout(scalar: .f64, byteOrder: flags & 1 == 0 ? .little : .big), offset: Int(bytes[2] % 16),
            count: flags & 2 == 0 ? nil : Int(bytes[3]),
            layout: DoubleListLayout(format: [.text, .csv, .json][Int(flags >> 2) % 3], columns: columns,
                                     showsIndex: flags & 0x20 != 0 && (flags >> 2) % 3 != 2, showsHex: flags & 0x40 != 0,
                                     showsHeader: (flags >> 2) % 3 == 1),
            summarises: flags & 0x80 != 0,
            allowsTrailingBytes: flags & 0x10 != 0
        )
        let data = Array(bytes[4...])
        let output = BufferedOutput(descriptor: ScratchFile.nullDevice, displayName: "/dev/null")
        let dump = ArrayDump(output: output, labelsInputs: flags & 8 != 0)
        _ = try? dump.dump(MemoryByteSource(data), named: "fuzz", options: options)
        let layout = DoubleTextLayout(hasIndex: flags & 0x20 != 0, hasHex: flags & 0x40 != 0, hasHeader: flags & 0x80 != 0)
        var parser = DoubleTextParser(source: MemoryByteSource(data), layout: layout)
        try? parser.forEachValue { _ in }
        var jsonParser = DoubleJSONParser(source: MemoryByteSource(data))
        try? jsonParser.forEachValue { _ in }
        // Every element type and a record, over the same bytes; a .npy header read from them.
        let type = ElementType.allCases[Int(bytes[3]) % ElementType.allCases.count]
        let record = flags & 4 == 0 ? RecordLayout(scalar: type, byteOrder: flags & 1 == 0 ? .little : .big)
            : (try? RecordLayout(parsing: "f64,\(type.rawValue),u8", byteOrder: .big, alignment: flags & 2 == 0 ? .packed : .natural))
        if let record {
            let arrays = ArrayDump(output: output, labelsInputs: flags & 8 != 0)
            _ = try? arrays.dump(MemoryByteSource(data), named: "fuzz",
                                 options: ArrayDumpOptions(record: record, layout: options.layout, summarises: options.summarises,
                                                           allowsTrailingBytes: true))
        }
        var npy = MemoryByteSource([0x93] + Array("NUMPY".utf8) + [1, 0, UInt8(data.count & 0xFF), 0] + data)
        _ = try? NPYHeader.read(from: &npy)
        for value in data.count >= 8 ? [Double(bitPattern: data.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) })] : [] {
            let text = ShortestDecimal.string(value)
            precondition(value.isNaN || Double(text)?.bitPattern == value.bitPattern, "\(text) does not read back")
        }
    }

    /// Every argument parser, with what each promises of what it accepts.
    static func fuzzArguments(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        if let rect = FractionalRect(parsing: text) {
            precondition(rect.width > 0 && rect.height > 0 && rect.x.isFinite && rect.y.isFinite)
            let snapped = rect.snappedOutward()
            precondition(snapped.width >= 1 && snapped.height >= 1)
            _ = snapped.clamped(width: 4000, height: 3000)
            for mode in ContentMode.allCases {
                let mapping = ViewMapping(viewWidth: 0.001, viewHeight: 1e9, mode: mode)
                _ = mapping.pictureRect(forView: rect, pictureWidth: 4000, pictureHeight: 3000).snappedOutward()
            }
            for orientation in Orientation.allCases {
                if let inside = snapped.clamped(width: 4000, height: 3000) {
                    precondition(orientation.storedRect(forDisplayed: inside, storedWidth: orientation.swapsAxes ? 3000 : 4000,
                                                        storedHeight: orientation.swapsAxes ? 4000 : 3000)
                        .fits(width: orientation.swapsAxes ? 3000 : 4000, height: orientation.swapsAxes ? 4000 : 3000))
                }
            }
        }
        if let size = ViewMapping.size(parsing: text) { precondition(size.width > 0 && size.height > 0) }
        switch TimeSpec(parsing: text) {
        case .seconds(let seconds)?: precondition(seconds >= 0 && seconds.isFinite)
        case .fraction(let fraction)?: precondition(fraction >= 0 && fraction <= 1)
        case nil: break
        }
        // A preview's schedule from the numbers its options and a container can give: segments,
        // their length, fps, a duration (any double), and a stretch.
        let numbers = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) }
        if numbers.count == 6, let count = numbers[0], let length = numbers[1], let fps = numbers[2],
           (1...1000).contains(count), length > 0, length <= 3600, PreviewSchedule.fpsRange.contains(fps) {
            let from = numbers[4].map { min(max($0, 0), TimeSpec.maxSeconds) }, to = numbers[5].map { min(max($0, 0), TimeSpec.maxSeconds) }
            if let schedule = try? PreviewSchedule(duration: numbers[3], segments: Int(count), segmentLength: length, fps: fps, from: from, to: to) {
                precondition(!schedule.frames.isEmpty && schedule.frames.count <= PreviewSchedule.maxFrames)
                precondition(schedule.frames.allSatisfy { $0.milliseconds >= 1 })
            }
        }
    }

    /// Media from memory, through a custom AVIOContext: opened, sought, decoded, converted.
    static func fuzzVideo(_ bytes: [UInt8]) {
        guard let video = try? VideoSource(bytes: bytes, threads: 1),
              let located = try? video.frame(atSeconds: 0.1, mode: .exact) else { return }
        let frame = located.frame
        guard frame.width > 0, frame.height > 0, frame.width * frame.height <= pixelLimit else { return }
        _ = try? video.uprightPixels(of: frame, video.display(of: frame, maxWidth: 64, maxHeight: 64).geometry)
        _ = try? video.frame(atSeconds: 1e9, mode: .keyframe)
    }
}

/// The file the file-reading targets write each input to, in memory-backed /dev/shm when there is one.
enum ScratchFile {
    static let folder: String = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp"
    static let path = "\(folder)/mediatool-fuzz-\(getpid())"
    static let outputPath = "\(folder)/mediatool-fuzz-\(getpid())-out.png"
    static let secondOutputPath = "\(folder)/mediatool-fuzz-\(getpid())-out-2.png"
    static let nullDevice: Int32 = open("/dev/null", O_WRONLY)

    static func write(_ bytes: [UInt8]) -> String {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        precondition(descriptor >= 0, "cannot write \(path)")
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                precondition(written > 0)
                offset += written
            }
        }
        close(descriptor)
        return path
    }
}
