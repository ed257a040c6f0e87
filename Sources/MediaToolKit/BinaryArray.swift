import Foundation
internal import BinaryArrays

/// Numbers stored in bytes, read in place: `Data` or `[UInt8]` kept as they are (no copy), each
/// element read from its own address when asked, whatever its alignment and byte order. Records are
/// read a field at a time: `stride` is the record's size and `offset` the field's place in the first.
///
/// The counterpart of `data.withUnsafeBytes { $0.bindMemory(to: Double.self) }` without its traps:
/// misaligned buffers, the other byte order, and a length that is not a whole number of elements.
public struct BinaryArray<Element: BinaryNumber>: RandomAccessCollection, Sendable {
    enum Storage: Sendable {
        case data(Data)
        case bytes([UInt8])
    }

    let storage: Storage
    /// The order of each element's bytes.
    public let endianness: Endianness
    /// Where the first element starts.
    public let offset: Int
    /// Bytes from one element to the next: its size, or a record's.
    public let stride: Int
    /// The number of elements.
    public let count: Int

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    /// The elements of `data` from `offset`, `stride` bytes apart (the element's size by default), as many as
    /// fit, or `count`. Bytes left after the last whole element are an error unless `allowsTrailingBytes`;
    /// errors call the bytes `name`.
    public init(_ data: Data, endianness: Endianness = .little, offset: Int = 0, stride: Int? = nil, count: Int? = nil,
                allowsTrailingBytes: Bool = false, name: String = "<bytes>") throws(MediaError) {
        try self.init(.data(data), length: data.count, endianness: endianness, offset: offset, stride: stride, count: count,
                      allowsTrailingBytes: allowsTrailingBytes, name: name)
    }

    /// The same over an array of bytes.
    public init(_ bytes: [UInt8], endianness: Endianness = .little, offset: Int = 0, stride: Int? = nil, count: Int? = nil,
                allowsTrailingBytes: Bool = false, name: String = "<bytes>") throws(MediaError) {
        try self.init(.bytes(bytes), length: bytes.count, endianness: endianness, offset: offset, stride: stride, count: count,
                      allowsTrailingBytes: allowsTrailingBytes, name: name)
    }

    private init(_ storage: Storage, length: Int, endianness: Endianness, offset: Int, stride: Int?, count: Int?,
                 allowsTrailingBytes: Bool, name: String) throws(MediaError) {
        let layout = try ArrayLayout(elementSize: MemoryLayout<Element>.size, offset: offset, stride: stride, count: count, name: name)
        self.storage = storage
        self.endianness = endianness
        self.offset = offset
        self.stride = layout.stride
        self.count = try layout.wholeElements(in: length, allowsTrailingBytes: allowsTrailingBytes, name: name)
    }

    /// The element at `position`, read from its bytes now; a position outside `0..<count` traps, as an array's does.
    public subscript(position: Int) -> Element {
        precondition(position >= 0 && position < count, "index \(position) out of 0..<\(count)")
        return withBytes { Element.load(from: $0 + offset + position * stride, endianness) }
    }

    /// Every element, decoded into an array in one pass.
    public var elements: [Element] {
        withBytes { base in
            (0..<count).map { Element.load(from: base + offset + $0 * stride, endianness) }
        }
    }

    private func withBytes<Result>(_ body: (UnsafeRawPointer) -> Result) -> Result {
        switch storage {
        case .data(let data): return data.withUnsafeBytes { body($0.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!) }
        case .bytes(let bytes): return bytes.withUnsafeBytes { body($0.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!) }
        }
    }
}

/// Where elements lie in bytes, checked once.
struct ArrayLayout {
    let elementSize: Int
    let offset: Int
    let stride: Int
    let count: Int?

    init(elementSize: Int, offset: Int, stride: Int?, count: Int?, name: String) throws(MediaError) {
        let stride = stride ?? elementSize
        guard elementSize > 0 else { throw .invalidRequest(file: name, reason: "an element of no bytes") }
        guard offset >= 0 else { throw .invalidRequest(file: name, reason: "an offset of \(offset) bytes") }
        guard stride >= elementSize else {
            throw .invalidRequest(file: name, reason: "a stride of \(stride) bytes is less than the \(elementSize) bytes of an element")
        }
        if let count, count < 0 { throw .invalidRequest(file: name, reason: "a count of \(count) elements") }
        self.elementSize = elementSize
        self.offset = offset
        self.stride = stride
        self.count = count
    }

    /// How many elements `length` bytes hold; what is left after the last is said as the command line says it.
    func wholeElements(in length: Int, allowsTrailingBytes: Bool, name: String) throws(MediaError) -> Int {
        guard offset <= length else { throw MediaError(DoubleDecodingError.offsetPastEnd(offset: offset, length: length), file: name) }
        let region = length - offset
        // The last element needs its own size, not a whole stride, after it.
        let fitting = region >= elementSize ? (region - elementSize) / stride + 1 : 0
        if let count {
            guard count <= fitting else {
                throw .damaged(file: name, reason: "\(count) elements of \(elementSize) bytes every \(stride) from offset \(offset) need more than the \(length) bytes there are")
            }
            return count
        }
        let trailing = stride == elementSize ? region % stride : 0
        if trailing > 0 && !allowsTrailingBytes {
            // As the command line says it, `--allow-trailing` being `allowsTrailingBytes` here.
            throw MediaError(DoubleDecodingError.trailingBytes(count: trailing, offset: length - trailing, wholeValues: fitting, size: elementSize), file: name)
        }
        return fitting
    }
}
