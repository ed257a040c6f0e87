import FileIO
import JSON

/// What `dump-array` does with an input: which records, and whether to list or summarise them.
public struct ArrayDumpOptions: Sendable {
    public var record: RecordLayout
    /// Bytes to pass over first, and the most records to take.
    public var offset: Int
    public var count: Int?
    public var layout: DoubleListLayout
    /// Summary statistics of each field instead of the values.
    public var summarises: Bool
    /// Trailing bytes that do not make a whole record are a warning, not an error.
    public var allowsTrailingBytes: Bool
    /// `count` records must be there (a `.npy` file's shape says so): fewer is an error.
    public var requiresCount = false
    /// Threads that format blocks of records beside the one that reads and writes; 1 does it all
    /// on the calling thread. The output is the same whatever the number.
    public var workers = 1

    public init(record: RecordLayout, offset: Int = 0, count: Int? = nil, layout: DoubleListLayout = DoubleListLayout(),
                summarises: Bool = false, allowsTrailingBytes: Bool = false) {
        self.record = record
        self.offset = offset
        self.count = count
        self.layout = layout
        self.summarises = summarises
        self.allowsTrailingBytes = allowsTrailingBytes
    }
}

/// Dumps arrays of any element type, or of records, inputs one after another into one output,
/// labelling each when there are several: a `==> NAME <==` line in text and csv, a
/// `{"file": NAME, ...}` JSON line in json. `dump-array`, and `dump-doubles` (records of one f64).
public struct ArrayDump {
    private let output: BufferedOutput
    private let labelsInputs: Bool

    public init(output: BufferedOutput, labelsInputs: Bool) {
        self.output = output
        self.labelsInputs = labelsInputs
    }

    /// Dumps one input. A problem found before any output throws with nothing written for the
    /// input. Returns the warnings to show.
    public func dump<Source: ByteSource>(_ source: Source, named name: String, options: ArrayDumpOptions) throws -> [DoubleDecodingError] {
        let record = options.record
        var reader = RecordReader(source: source, stride: record.stride, offset: options.offset, count: options.count)
        if let problem = try reader.precheck(), !options.allowsTrailingBytes { throw problem }
        let jsonName = labelsInputs ? name : nil
        let trailing: DoubleDecodingError?
        if options.summarises {
            var statistics = [DoubleStatistics](repeating: DoubleStatistics(), count: record.fields.count)
            // Blocks of a fixed size, summarised apart and merged in order, on any number of cores:
            // the same bits everywhere (see `DoubleStatistics.merge`).
            let fields = record.fields, stride = record.stride
            let pipeline = OrderedBlockPipeline<[DoubleStatistics]>(
                workers: options.workers > 1 ? options.workers : 0, elementSize: stride,
                makeResult: { [DoubleStatistics](repeating: DoubleStatistics(), count: fields.count) },
                work: { bytes, count, _, result in
                    for (index, field) in fields.enumerated() {
                        var block = DoubleStatistics()
                        for item in 0..<count { block.add(FieldText.double(of: field, in: bytes.baseAddress! + item &* stride)) }
                        result[index] = block
                    }
                },
                consume: { blocks in
                    for index in blocks.indices { statistics[index].merge(blocks[index]) }
                })
            trailing = try reader.forEachBlock { bytes, count in try pipeline.append(bytes, count: count) }
            try pipeline.finish()
            // Statistics are printed last, so a stream's trailing bytes still leave nothing printed.
            if let trailing, !options.allowsTrailingBytes { throw trailing }
            try writeStatistics(statistics, record: record, format: options.layout.format, name: name, jsonName: jsonName)
        } else {
            var writer = RecordListWriter(layout: options.layout, record: record, jsonFileName: jsonName)
            var started = false
            func start() throws {
                if labelsInputs && options.layout.format != .json { try output.write("==> \(name) <==\n") }
                try writer.begin(to: output)
                started = true
            }
            var records = 0
            if options.workers > 1 && (reader.remainingLength ?? Int.max) >= Self.parallelThreshold {
                let template = writer
                let output = output
                let pipeline = OrderedBlockPipeline<FormattedBlock>(
                    workers: options.workers, elementSize: record.stride,
                    makeResult: { FormattedBlock(capacity: template.maxBytes(forRecords: max(1, OrderedBlockPipeline<FormattedBlock>.blockBytes / record.stride))) },
                    work: { bytes, count, first, result in result.count = template.format(bytes, count: count, first: first, into: result.bytes) },
                    consume: { try output.write(UnsafeRawBufferPointer(start: $0.bytes, count: $0.count)) })
                trailing = try reader.forEachBlock { bytes, count in
                    if !started { try start() }
                    try pipeline.append(bytes, count: count)
                    records += count
                }
                try pipeline.finish()
                writer.advance(by: records)
            } else {
                trailing = try reader.forEachBlock { bytes, count in
                    if !started { try start() }
                    try writer.write(bytes, count: count, to: output)
                    records += count
                }
            }
            if !started { try start() }
            try writer.finish(to: output)
            if options.requiresCount, let expected = options.count, records < expected {
                try output.flush()
                throw NPYError.dataTooShort(needed: expected * record.stride, available: records * record.stride)
            }
        }
        try output.flush()
        guard let trailing else { return [] }
        if !options.allowsTrailingBytes { throw trailing }
        return [trailing]
    }

    /// Inputs shorter than this are formatted on the calling thread: starting workers costs more.
    static var parallelThreshold: Int { 1 << 20 }

    /// One block's text, formatted by a worker.
    final class FormattedBlock {
        let bytes: UnsafeMutablePointer<UInt8>
        var count = 0
        init(capacity: Int) { bytes = .allocate(capacity: capacity) }
        deinit { bytes.deallocate() }
    }

    /// One summary a field: a lone field's as `name value` lines; for records, a titled
    /// block a field (text) or an object of the fields' summaries by name (json).
    private func writeStatistics(_ statistics: [DoubleStatistics], record: RecordLayout, format: DoubleListFormat,
                                 name: String, jsonName: String?) throws {
        let isScalar = statistics.count == 1
        switch format {
        case .json:
            let object = isScalar ? DoubleStatisticsReport.json(statistics[0], type: record.fields[0].type)
                : .object(zip(record.fields, statistics).map { JSONMember($0.name, DoubleStatisticsReport.json($1, type: $0.type)) })
            let line = jsonName.map { JSONValue.object([JSONMember("file", .string($0)), JSONMember("stats", object)]) } ?? object
            try output.write(line.text + "\n")
        case .text, .csv:
            if labelsInputs { try output.write("==> \(name) <==\n") }
            if isScalar {
                try output.write(DoubleStatisticsReport.text(statistics[0], type: record.fields[0].type))
            } else {
                for (field, summary) in zip(record.fields, statistics) {
                    try output.write("field \(field.name) (\(field.type.rawValue))\n"
                                     + DoubleStatisticsReport.text(summary, type: field.type))
                }
            }
        }
    }
}

extension ArrayDump {
    /// Dumps `file`: a `.npy` file by its header when `isNPY` (type, byte order, shape and order
    /// from it; `options.count` still caps the records), else raw records as `options` say.
    public func dump(_ file: InputFile, named name: String, options: ArrayDumpOptions, isNPY: Bool) throws -> [DoubleDecodingError] {
        guard isNPY else { return try dump(file, named: name, options: options) }
        var source = file
        let header = try NPYHeader.read(from: &source)
        var options = options
        options.record = header.record
        options.offset = 0
        options.count = min(header.count, options.count ?? Int.max)
        options.requiresCount = true
        if options.layout.columns == 1 { options.layout.columns = header.columns }
        let needed = header.count * header.record.stride
        if let size = file.size, size - header.dataOffset < needed {
            throw NPYError.dataTooShort(needed: needed, available: size - header.dataOffset)
        }
        if header.isFortranOrder && header.shape.count == 2 {
            guard file.isRegular else { throw NPYError.malformedHeader("a Fortran-order array is read from a file, not a stream") }
            // A block holds at least one whole row: memory stays bounded only if rows are.
            guard header.shape[1] * header.record.stride <= 1 << 26 else {
                throw NPYError.malformedHeader("Fortran-order rows of more than 64 MiB are not read")
            }
            let columns = FortranOrderSource(file: file, dataOffset: header.dataOffset, rows: header.shape[0],
                                             columns: header.shape[1], elementSize: header.record.stride)
            return try dump(columns, named: name, options: options)
        }
        return try dump(file, named: name, options: options)
    }
}
