import CHeifShim
import FileIO

/// A grid's HEVC tile decoded by libde265 and averaged down to RGB (`mt_hevc_decode_reduced`),
/// past libheif: for a picture reduced by 2 or more, libheif's handling of a tile's planes (a
/// conversion of every coded pixel) cost as much as decoding it, and the reduction a tenth more.
enum HEVCTileReduction {
    /// The top-left `width` x `height` pixels of `tile` reduced by `factor`, in 16-bit RGB (the
    /// means' fractions kept for the reduction after); nil where the tile is
    /// not 8-bit colour in a matrix converted by luma weights (the caller decodes it through libheif).
    static func decode(tile: HEIFContainer.Item, container: HEIFContainer, file: InputFile,
                       width: Int, height: Int, factor: Int) throws -> HEIFPixels? {
        guard tile.type == "hvc1", let configuration = container.properties(of: tile, type: "hvcC").first,
              let coded = container.spatialExtent(of: tile), coded.width >= width, coded.height >= height else { return nil }
        var units = try parameterSets(Array(configuration.payload))
        try appendUnits(of: container.data(of: tile, file: file), lengthSize: Int(configuration.payload.dropFirst(21).first ?? 3) & 3 + 1, to: &units)
        let (reducedWidth, reducedHeight) = ((width + factor - 1) / factor, (height + factor - 1) / factor)
        var bytes = [UInt8](repeating: 0, count: reducedWidth * reducedHeight * 6)
        var message = [CChar](repeating: 0, count: 256)
        let result = bytes.withUnsafeMutableBufferPointer { target in
            mt_hevc_decode_reduced(units, UInt(units.count), Int32(coded.width), Int32(coded.height), Int32(width), Int32(height), Int32(factor),
                                   target.baseAddress, &message, UInt(message.count))
        }
        switch Int(result) {
        case MT_HEVC_REDUCED: return HEIFPixels(width: reducedWidth, height: reducedHeight, channels: 3, bytesPerSample: 2, bytes: bytes)
        case MT_HEVC_NOT_REDUCIBLE: return nil
        default: throw HEIFError.decoding(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
    }

    /// The parameter sets of an `hvcC` payload (ISO/IEC 14496-15), each after a 4-byte length.
    static func parameterSets(_ payload: [UInt8]) throws -> [UInt8] {
        guard payload.count >= 23 else { throw HEIFError.decoding("its HEVC configuration (hvcC) is \(payload.count) bytes, less than 23") }
        var at = 23, units: [UInt8] = []
        for _ in 0..<Int(payload[22]) {
            guard at + 3 <= payload.count else { throw HEIFError.decoding("its HEVC configuration (hvcC) ends inside its parameter sets") }
            let count = Int(payload[at + 1]) << 8 | Int(payload[at + 2])
            at += 3
            for _ in 0..<count {
                guard at + 2 <= payload.count else { throw HEIFError.decoding("its HEVC configuration (hvcC) ends inside its parameter sets") }
                let length = Int(payload[at]) << 8 | Int(payload[at + 1])
                at += 2
                guard length <= payload.count - at else { throw HEIFError.decoding("its HEVC configuration (hvcC) ends inside its parameter sets") }
                units += [0, 0, UInt8(length >> 8), UInt8(length & 0xFF)] + payload[at..<(at + length)]
                at += length
            }
        }
        return units
    }

    /// `data`'s NAL units, each after a length of `lengthSize` bytes, appended after 4-byte lengths.
    static func appendUnits(of data: [UInt8], lengthSize: Int, to units: inout [UInt8]) throws {
        var at = 0
        units.reserveCapacity(units.count + data.count + data.count / 64)
        while at < data.count {
            guard lengthSize <= data.count - at else { throw HEIFError.decoding("HEVC data ends inside a NAL unit's length") }
            let length = data[at..<(at + lengthSize)].reduce(0) { $0 << 8 | Int($1) }
            at += lengthSize
            guard length <= data.count - at else { throw HEIFError.decoding("an HEVC NAL unit runs past the end of its data") }
            units += [UInt8(length >> 24 & 0xFF), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
            units += data[at..<(at + length)]
            at += length
        }
    }
}
