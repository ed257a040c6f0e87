import FileIO

/// The data of a 2-dimensional Fortran-order (column-major) array read back in C order (row
/// after row), from a file read at offsets: a block of rows at a time, each column's part of the
/// block one read, so memory stays bounded however large the array.
public struct FortranOrderSource: ByteSource {
    private let file: InputFile
    private let dataOffset: Int
    private let rows: Int
    private let columns: Int
    private let size: Int
    /// The block of rows read, in C order, and how far it has been handed out.
    private var block: [UInt8] = []
    private var position = 0
    private var nextRow = 0
    private let rowsPerBlock: Int

    public init(file: InputFile, dataOffset: Int, rows: Int, columns: Int, elementSize: Int) {
        self.file = file
        self.dataOffset = dataOffset
        self.rows = rows
        self.columns = columns
        size = elementSize
        rowsPerBlock = max(1, (1 << 20) / max(1, columns * elementSize))
    }

    public var remainingLength: Int? { (rows - nextRow) * columns * size + block.count - position }

    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if position == block.count {
            guard nextRow < rows else { return 0 }
            try fill()
        }
        let count = min(buffer.count, block.count - position)
        block.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[position..<(position + count)])) }
        position += count
        return count
    }

    public mutating func skip(_ count: Int) throws -> Int {
        // Only the header's own bytes are ever skipped, and the source starts after them.
        var skipped = 0
        var scratch = [UInt8](repeating: 0, count: 4096)
        while skipped < count {
            let read = try scratch.withUnsafeMutableBytes { try self.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[..<min($0.count, count - skipped)])) }
            if read == 0 { break }
            skipped += read
        }
        return skipped
    }

    /// The next rows, column by column from the file, laid out row by row.
    private mutating func fill() throws {
        let count = min(rowsPerBlock, rows - nextRow)
        var column = [UInt8](repeating: 0, count: count * size)
        block = [UInt8](repeating: 0, count: count * columns * size)
        for j in 0..<columns {
            let offset = dataOffset + (j * rows + nextRow) * size
            let read = try column.withUnsafeMutableBytes { try file.read(at: offset, into: $0) }
            guard read == column.count else {
                throw NPYError.dataTooShort(needed: rows * columns * size, available: offset + read - dataOffset)
            }
            for i in 0..<count {
                let target = (i * columns + j) * size
                for byte in 0..<size { block[target + byte] = column[i * size + byte] }
            }
        }
        position = 0
        nextRow += count
    }
}
