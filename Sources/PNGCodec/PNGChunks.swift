import CPNGShim
import CZlib
import Glibc
import FileIO

/// What a walk over a PNG file's chunk headers finds, before any pixel is decoded: the size, and the
/// eXIf chunk wherever it stands (some writers put it after the image data). `verifyChecksums`
/// checks every chunk's CRC, which libpng would not reach when decoding stops after the last row
/// needed; it can run beside the decoding.
public struct PNGChunks: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// What decoding needs beside the region (see `PNGDecoder.workingBytes`), from IHDR alone,
    /// so that a picture too large for the memory limit is refused before libpng allocates its
    /// rows (it clears one of the whole width: 1.5 GB for a 200000000x1 16-bit RGBA picture).
    public let workingBytes: Int
    /// The payload of the first eXIf chunk.
    public let exif: [UInt8]?
    /// The EXIF block of an ImageMagick "Raw profile type exif" text chunk, for a file without eXIf.
    public let rawProfileExif: [UInt8]?
    /// The XMP packet of an iTXt "XML:com.adobe.xmp" chunk.
    public let xmp: [UInt8]?
    /// IHDR's bit depth and colour type.
    public let bitDepth: Int
    public let colourType: Int
    /// A tRNS chunk: transparency without an alpha channel.
    public let hasTransparencyChunk: Bool
    /// acTL's frame count: an animated PNG (APNG); nil for a still picture.
    public let animationFrames: Int?
    /// Where each chunk stands: its offset in the file and the length of its data.
    let spans: [Span]

    struct Span: Sendable, Equatable {
        let offset: Int
        let length: Int
        let type: String
    }

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// True when `bytes` starts with the PNG signature.
    public static func hasSignature(_ bytes: [UInt8]) -> Bool { bytes.starts(with: signature) }

    /// Walks the chunk headers of a regular file, passing over their data.
    public static func scan(file: InputFile) throws(PNGError) -> PNGChunks {
        func read(_ count: Int, at offset: Int) -> [UInt8]? {
            var bytes = [UInt8](repeating: 0, count: count)
            let got = bytes.withUnsafeMutableBytes { try? file.read(at: offset, into: $0) }
            return got == count ? bytes : nil
        }
        guard let signature = read(8, at: 0), hasSignature(signature) else { throw .notPNG }
        let fileSize = file.size ?? 0
        var offset = 8
        var width = 0, height = 0, workingBytes = 0, bitDepth = 8, colourType = 0
        var hasTransparencyChunk = false
        var animationFrames: Int?
        var exif: [UInt8]?
        var texts = PNGTextMetadata()
        var sawHeader = false
        var spans: [Span] = []
        // Each chunk is at least 12 bytes, so the walk ends with the file.
        while let header = read(8, at: offset) {
            let length = Int(header[0]) << 24 | Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
            let type = String(decoding: header[4..<8], as: UTF8.self)
            guard length <= 0x7FFF_FFFF else { throw .library(message: "chunk \(type) claims \(length) bytes") }
            guard offset + 12 + length <= fileSize else {
                throw .library(message: "truncated: chunk \(type) runs past the end of the file")
            }
            spans.append(Span(offset: offset, length: length, type: type))
            if !sawHeader {
                guard type == "IHDR", length == 13, let data = read(13, at: offset + 8) else {
                    throw .library(message: "IHDR is not the first chunk")
                }
                width = Int(data[0]) << 24 | Int(data[1]) << 16 | Int(data[2]) << 8 | Int(data[3])
                height = Int(data[4]) << 24 | Int(data[5]) << 16 | Int(data[6]) << 8 | Int(data[7])
                // Rows as decoded: a palette expands to RGBA at most, low depths to a byte a sample.
                let channels = [0: 1, 2: 3, 3: 4, 4: 2, 6: 4][Int(data[9])] ?? 4
                (bitDepth, colourType) = (Int(data[8]), Int(data[9]))
                let bytesPerPixel = channels * (data[8] == 16 ? 2 : 1)
                workingBytes = PNGDecoder.workingBytes(width: width, height: height, bytesPerPixel: bytesPerPixel,
                                                       isInterlaced: data[12] != 0)
                sawHeader = true
            } else if type == "tRNS" {
                hasTransparencyChunk = true
            } else if type == "acTL", length == 8, animationFrames == nil, let data = read(4, at: offset + 8) {
                animationFrames = Int(data[0]) << 24 | Int(data[1]) << 16 | Int(data[2]) << 8 | Int(data[3])
            } else if type == "eXIf" && exif == nil {
                exif = read(length, at: offset + 8)
            } else if type == "tEXt" || type == "zTXt" || type == "iTXt", length <= PNGTextMetadata.textLimit,
                      let data = read(length, at: offset + 8) {
                texts.take(chunk: type, data: data)
            } else if type == "IEND" {
                break
            }
            offset += 12 + length
        }
        guard sawHeader else { throw .library(message: "no IHDR chunk") }
        return PNGChunks(width: width, height: height, workingBytes: workingBytes, exif: exif, rawProfileExif: texts.rawProfileExif,
                         xmp: texts.xmp, bitDepth: bitDepth, colourType: colourType, hasTransparencyChunk: hasTransparencyChunk,
                         animationFrames: animationFrames, spans: spans)
    }

    /// Checks the CRC of every chunk the walk found.
    public func verifyChecksums(file: InputFile) throws(PNGError) {
        for span in spans {
            let storedCRC = UnsafeMutableRawBufferPointer.allocate(byteCount: 4, alignment: 4)
            defer { storedCRC.deallocate() }
            let got = try Self.read(file) { (file) throws(SystemError) in try file.read(at: span.offset + 8 + span.length, into: storedCRC) }
            let stored = Array(storedCRC)
            let expected = UInt32(stored[0]) << 24 | UInt32(stored[1]) << 16 | UInt32(stored[2]) << 8 | UInt32(stored[3])
            guard got == 4, try Self.checksum(of: file, from: span.offset + 4, count: 4 + span.length) == expected else {
                throw .library(message: "\(span.type): CRC error")
            }
        }
    }

    /// The CRC-32 of `bytes`: what a chunk's type and data are checked by.
    public static func checksum(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { mt_crc32(0, $0.baseAddress, $0.count) }
    }

    /// The CRC-32 of `count` bytes from `offset`, read a block at a time; nil past the end.
    private static func checksum(of file: InputFile, from offset: Int, count: Int) throws(PNGError) -> UInt32? {
        let blockSize = 1 << 20
        let block = UnsafeMutableRawPointer.allocate(byteCount: min(count, blockSize), alignment: 16)
        defer { block.deallocate() }
        var crc: UInt32 = 0
        var done = 0
        while done < count {
            let wanted = min(blockSize, count - done)
            let got = try read(file) { (file) throws(SystemError) in
                try file.read(at: offset + done, into: UnsafeMutableRawBufferPointer(start: block, count: wanted))
            }
            guard got == wanted else { return nil }
            crc = mt_crc32(crc, block.assumingMemoryBound(to: UInt8.self), wanted)
            done += wanted
        }
        return crc
    }

    /// A read of the file, its system error told as a PNG error.
    private static func read(_ file: InputFile, _ body: (InputFile) throws(SystemError) -> Int) throws(PNGError) -> Int {
        do { return try body(file) } catch { throw .library(message: error.description) }
    }
}
