import CPNGShim
import CZlib
import FileIO
import Synchronization
import WorkerPool

/// The zlib stream a PNG's IDAT chunks carry, made from rows filtered with None or Up and
/// compressed (ISA-L at levels 1 to 3 where built with it, else zlib) in horizontal bands on
/// threads of their own, as pigz does: each band after the first
/// is primed with the 32 KiB of filtered bytes before it, so the stream matches what one thread
/// would find, and every band but the last ends on a byte boundary (a sync flush), so the raw
/// streams join end to end. The 1080p benchmark frame: about 28 ms on one core, 14 on two.
/// (Unchecked Sendable: the rows are only read, and outlive every thread.)
struct PNGImageData: @unchecked Sendable {
    let rows: UnsafePointer<UInt8>
    let rowBytes: Int
    let height: Int
    /// Up (each row less the row above) or None.
    let usesUpFilter: Bool
    let level: Int32
    let strategy: Int32

    /// Below this many bytes a picture is compressed on the calling thread only.
    static let bytesPerBand = 512 * 1024
    static let window = 32 * 1024

    var filteredRowBytes: Int { rowBytes + 1 }

    func compressed(threads: Int = WorkerThreads.cores) throws(PNGError) -> [UInt8] {
        // Bands of at least 512 KiB, a few a thread: some parts of a picture take longer than others.
        let total = filteredRowBytes * height
        let bands = max(1, min(threads * 4, total / Self.bytesPerBand, height))
        let results = Mutex<[Result<Band, PNGError>?]>(Array(repeating: nil, count: bands))
        let nextBand = Atomic<Int>(0)
        let work = { @Sendable (_: Int) in
            while case let band = nextBand.add(1, ordering: .relaxed).oldValue, band < bands {
                let result = Result { () throws(PNGError) in try compressBand(band, of: bands) }
                results.withLock { $0[band] = result }
            }
        }
        let workers = min(threads, bands)
        // A small picture is one band: no thread to start for it.
        if workers == 1 { work(0) } else { WorkerThreads.run(count: workers, work) }
        var stream = Self.zlibHeader(level: level)
        var checksum: UInt = adler32(0, nil, 0)
        for band in 0..<bands {
            let part = try results.withLock { $0[band]! }.get()
            stream.append(contentsOf: part.deflated)
            checksum = adler32_combine(checksum, part.adler, part.length)
        }
        let adler = UInt32(truncatingIfNeeded: checksum)
        stream.append(contentsOf: [UInt8(adler >> 24), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF)])
        return stream
    }

    /// RFC 1950's two bytes: deflate with a 32 KiB window, the level as a hint, and a check value.
    static func zlibHeader(level: Int32) -> [UInt8] {
        let method: UInt16 = 0x78
        let hint: UInt16 = level <= 1 ? 0 : level <= 5 ? 1 : level == 6 ? 2 : 3
        var flags = hint << 6
        flags += 31 - (method << 8 | flags) % 31
        return [UInt8(method), UInt8(flags)]
    }

    struct Band: Sendable {
        let deflated: [UInt8]
        let adler: UInt
        let length: Int
    }

    private func compressBand(_ band: Int, of bands: Int) throws(PNGError) -> Band {
        let firstRow = height * band / bands
        let endRow = height * (band + 1) / bands
        // Rows filtered a batch at a time, so memory stays small whatever the picture.
        let batchRows = max(1, min(endRow - firstRow, 64 * 1024 / filteredRowBytes))
        let primingRows = band == 0 ? 0 : min(firstRow, (Self.window + filteredRowBytes - 1) / filteredRowBytes)
        let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: max(batchRows, primingRows) * filteredRowBytes)
        defer { scratch.deallocate() }
        var dictionary: (start: UnsafeMutablePointer<UInt8>, count: Int) = (scratch, 0)
        if primingRows > 0 {
            filter(rows: (firstRow - primingRows)..<firstRow, into: scratch)
            let primed = min(Self.window, primingRows * filteredRowBytes)
            dictionary = (scratch + primingRows * filteredRowBytes - primed, primed)
        }
        guard let deflater = mt_deflater_create(level, strategy, dictionary.start, dictionary.count) else {
            throw .library(message: "deflate: cannot start a band")
        }
        defer { mt_deflater_free(deflater) }

        var output = [UInt8]()
        output.reserveCapacity(filteredRowBytes * (endRow - firstRow) / 4)
        var checksum: UInt = adler32(0, nil, 0)
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var row = firstRow
        while row < endRow {
            let last = min(endRow, row + batchRows)
            filter(rows: row..<last, into: scratch)
            let count = (last - row) * filteredRowBytes
            checksum = adler32_z(checksum, scratch, count)
            let flush = last < endRow ? MT_DEFLATE_MORE : band == bands - 1 ? MT_DEFLATE_FINISH : MT_DEFLATE_SYNC
            try chunk.withUnsafeMutableBufferPointer { (buffer) throws(PNGError) in
                var input: UnsafeMutablePointer<UInt8>? = scratch
                var written: Int
                repeat {
                    written = mt_deflater_compress(deflater, input, input == nil ? 0 : count, Int32(flush),
                                                   buffer.baseAddress, buffer.count)
                    guard written >= 0 else { throw .library(message: "deflate failed") }
                    output.append(contentsOf: buffer[0..<written])
                    input = nil
                } while written == buffer.count
            }
            row = last
        }
        return Band(deflated: output, adler: checksum, length: (endRow - firstRow) * filteredRowBytes)
    }

    /// Each row as PNG stores it: a filter-type byte, then the row, or its difference from the row above.
    private func filter(rows range: Range<Int>, into destination: UnsafeMutablePointer<UInt8>) {
        var out = destination
        for row in range {
            let current = rows + row * rowBytes
            if usesUpFilter && row > 0 {
                out[0] = 2
                let above = current - rowBytes
                for index in 0..<rowBytes {
                    out[index &+ 1] = current[index] &- above[index]
                }
            } else {
                // The first row has nothing above it: Up would be None with another label.
                out[0] = 0
                (out + 1).update(from: current, count: rowBytes)
            }
            out += filteredRowBytes
        }
    }
}
