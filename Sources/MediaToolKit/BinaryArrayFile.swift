internal import FileIO

/// Numbers in a file, read in blocks in constant memory, however large the file: each element of the
/// sequence is a block of about 64 KiB of numbers (`elementsPerBlock`). The layout is `BinaryArray`'s: any alignment, either byte
/// order, a field of records by `offset` and `stride`.
public struct BinaryArrayFile<Number: BinaryNumber>: AsyncSequence, Sendable {
    public typealias Element = BinaryArray<Number>
    public typealias Failure = MediaError

    /// The file (or bytes, or descriptor) read.
    public let source: MediaSource
    /// The order of each element's bytes.
    public let endianness: Endianness
    /// Where the first element starts, in bytes from the start of the file.
    public let offset: Int
    /// Bytes from one element to the next; nil for the element's size.
    public let stride: Int?
    /// The elements read; nil for as many as the file holds.
    public let count: Int?
    /// Bytes after the last whole element are passed over, instead of an error.
    public let allowsTrailingBytes: Bool
    /// Elements a block at most.
    public let elementsPerBlock: Int

    /// The elements of `source` as `BinaryArray` lays them out; the file is opened at the first block.
    public init(_ source: MediaSource, endianness: Endianness = .little, offset: Int = 0, stride: Int? = nil, count: Int? = nil,
                allowsTrailingBytes: Bool = false, elementsPerBlock: Int? = nil) {
        self.source = source
        self.endianness = endianness
        self.offset = offset
        self.stride = stride
        self.count = count
        self.allowsTrailingBytes = allowsTrailingBytes
        self.elementsPerBlock = Swift.max(1, elementsPerBlock ?? 65_536 / Swift.max(1, stride ?? MemoryLayout<Number>.size))
    }

    public func makeAsyncIterator() -> Iterator { Iterator(array: self) }

    /// Reads one block a call; the file is opened at the first.
    public struct Iterator: AsyncIteratorProtocol {
        public typealias Element = BinaryArray<Number>
        public typealias Failure = MediaError

        let array: BinaryArrayFile
        var file: InputFile?
        var layout: ArrayLayout?
        var total = 0
        var done = 0

        /// The next block; nil after the last. The layout is checked against the file's length before the first.
        public mutating func next() async throws(MediaError) -> BinaryArray<Number>? {
            if Task.isCancelled { throw .cancelled(file: array.source.name) }
            if file == nil {
                // A stream (a pipe, a FIFO) is copied once, so that its length is known up front.
                let opened = try array.source.open(recognise: nil)
                let layout = try ArrayLayout(elementSize: MemoryLayout<Number>.size, offset: array.offset, stride: array.stride, count: array.count,
                                             name: array.source.name)
                total = try layout.wholeElements(in: opened.size ?? 0, allowsTrailingBytes: array.allowsTrailingBytes, name: array.source.name)
                file = opened
                self.layout = layout
            }
            guard let file, let layout, done < total else { return nil }
            let elements = Swift.min(array.elementsPerBlock, total - done)
            let start = layout.offset + done * layout.stride
            let length = (elements - 1) * layout.stride + layout.elementSize
            var bytes = [UInt8](repeating: 0, count: length)
            do {
                // `read(at:)` reads on until the length or the end: short only when the file shrank.
                let count = try bytes.withUnsafeMutableBytes { try file.read(at: start, into: $0) }
                guard count == length else { throw InputError.shrank(expected: file.size ?? 0, found: start + count) }
            } catch {
                throw MediaError(error, file: array.source.name)
            }
            done += elements
            return bytes.withUnsafeBytes { BinaryArray<Number>(decoding: $0, endianness: array.endianness, stride: layout.stride, count: elements) }
        }
    }
}
