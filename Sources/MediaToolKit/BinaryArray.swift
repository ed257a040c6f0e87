import Foundation
internal import BinaryArrays

/// Numbers stored in bytes, read in place: `Data` or `[UInt8]` kept as they are (no copy), each
/// element read from its own address when asked, whatever its alignment and byte order. Records are
/// read a field at a time: `stride` is the record's size and `offset` the field's place in the first.
///
/// The counterpart of `data.withUnsafeBytes { $0.bindMemory(to: Double.self) }` without its traps:
/// misaligned buffers, the other byte order, and a length that is not a whole number of elements.
public struct BinaryArray<Element: BinaryNumber>: RandomAccessCollection, Sendable {
    @usableFromInline
    enum Storage: Sendable {
        case data(Data)
        case bytes([UInt8])
        /// Values already in the host's order (a file's block, read and decoded in one pass).
        case decoded([Element])
    }

    @usableFromInline
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

    /// A block of a file, its numbers decoded from `bytes` in one pass. This runs unspecialized (the
    /// file's reader is not inlined into callers): the numbers of the standard library are copied and
    /// their bytes turned by size, not loaded one generic call at a time.
    init(decoding bytes: UnsafeRawBufferPointer, endianness: Endianness, stride: Int, count: Int) {
        let base = bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!
        let size = MemoryLayout<Element>.size
        if plainNumbers.contains(ObjectIdentifier(Element.self)) {
            storage = .decoded([Element](unsafeUninitializedCapacity: count) { values, initialized in
                let target = UnsafeMutableRawPointer(values.baseAddress!)
                if stride == size {
                    target.copyMemory(from: base, byteCount: count * size)
                } else {
                    for index in 0..<count { (target + index * size).copyMemory(from: base + index * stride, byteCount: size) }
                }
                if size > 1 && (endianness == .little) != (1.littleEndian == 1) {
                    let raw = UnsafeMutableRawBufferPointer(start: target, count: count * size)
                    for start in Swift.stride(from: 0, to: raw.count, by: size) { raw[start..<(start + size)].reverse() }
                }
                initialized = count
            })
        } else {
            storage = .decoded((0..<count).map { Element.load(from: base + $0 * stride, endianness) })
        }
        self.endianness = endianness
        offset = 0
        self.stride = stride
        self.count = count
    }

    /// The element at `position`, read from its bytes now; a position outside `0..<count` traps, as an array's does.
    @inlinable
    public subscript(position: Int) -> Element {
        precondition(position >= 0 && position < count, "index \(position) out of 0..<\(count)")
        if case .decoded(let values) = storage { return values[position] }
        return withBytes { Element.load(from: $0 + offset + position * stride, endianness) }
    }

    /// Every element, decoded into an array in one pass.
    @inlinable
    public var elements: [Element] {
        if case .decoded(let values) = storage { return values }
        return withBytes { base in
            (0..<count).map { Element.load(from: base + offset + $0 * stride, endianness) }
        }
    }

    /// Reads each element as the loop comes to it; a file's block is read from its decoded values.
    public struct Iterator: IteratorProtocol {
        @usableFromInline let array: BinaryArray
        @usableFromInline var values: IndexingIterator<[Element]>?
        @usableFromInline var position = 0

        @inlinable
        init(array: BinaryArray, values: IndexingIterator<[Element]>?) {
            self.array = array
            self.values = values
        }

        /// The next element, nil after the last.
        @inlinable
        public mutating func next() -> Element? {
            if values != nil { return values!.next() }
            guard position < array.count else { return nil }
            defer { position += 1 }
            return array[position]
        }
    }

    /// An iterator over the elements in order.
    @inlinable
    public func makeIterator() -> Iterator {
        if case .decoded(let values) = storage { return Iterator(array: self, values: values.makeIterator()) }
        return Iterator(array: self, values: nil)
    }

    @inlinable
    func withBytes<Result>(_ body: (UnsafeRawPointer) -> Result) -> Result {
        switch storage {
        case .data(let data): return data.withUnsafeBytes { body($0.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!) }
        case .bytes(let bytes): return bytes.withUnsafeBytes { body($0.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!) }
        case .decoded: preconditionFailure("decoded values have no bytes")
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

/// The standard library's numbers, whose bytes are their value in the host's order: copied whole.
let plainNumbers: Set<ObjectIdentifier> = [
    ObjectIdentifier(Double.self), ObjectIdentifier(Float.self), ObjectIdentifier(Float16.self),
    ObjectIdentifier(Int8.self), ObjectIdentifier(Int16.self), ObjectIdentifier(Int32.self), ObjectIdentifier(Int64.self),
    ObjectIdentifier(UInt8.self), ObjectIdentifier(UInt16.self), ObjectIdentifier(UInt32.self), ObjectIdentifier(UInt64.self),
]
