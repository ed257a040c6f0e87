import JSON
import FileIO

/// What `dump-doubles` does with an input: which values, and whether to list or summarise them.
public struct DoubleDumpOptions: Sendable {
    public var selection: DoubleSelection
    public var layout: DoubleListLayout
    /// Summary statistics instead of the values.
    public var summarises: Bool
    /// Trailing bytes that do not make a whole value are a warning, not an error.
    public var allowsTrailingBytes: Bool
    /// Threads that format (or summarise) blocks of values beside the one that reads and writes;
    /// 1 does it all on the calling thread. The output is the same whatever the number.
    public var workers = 1

    public init(selection: DoubleSelection = DoubleSelection(), layout: DoubleListLayout = DoubleListLayout(),
                summarises: Bool = false, allowsTrailingBytes: Bool = false) {
        self.selection = selection
        self.layout = layout
        self.summarises = summarises
        self.allowsTrailingBytes = allowsTrailingBytes
    }
}

/// Dumps inputs one after another into one output, labelling each when there are several:
/// a `==> NAME <==` line in text and csv, a `{"file": NAME, ...}` JSON line in json.
public struct DoubleDump {
    private let options: DoubleDumpOptions
    private let output: BufferedOutput
    private let labelsInputs: Bool

    public init(options: DoubleDumpOptions, output: BufferedOutput, labelsInputs: Bool) {
        self.options = options
        self.output = output
        self.labelsInputs = labelsInputs
    }

    /// Dumps one input. A problem found before any output (a known length with trailing bytes, an
    /// offset past the end) throws with nothing written for the input. Returns the warnings to show.
    public func dump<Source: ByteSource>(_ source: Source, named name: String) throws -> [DoubleDecodingError] {
        var reader = DoubleReader(source: source, selection: options.selection)
        if let problem = try reader.precheck(), !options.allowsTrailingBytes {
            throw problem
        }
        let jsonName = labelsInputs ? name : nil
        let trailing: DoubleDecodingError?
        if options.summarises {
            var statistics = DoubleStatistics()
            // Blocks of a fixed size, summarised apart and merged in order, on any number of cores:
            // the same bits everywhere (see `DoubleStatistics.merge`).
            let pipeline = OrderedBlockPipeline<DoubleStatistics>(
                workers: options.workers > 1 ? options.workers : 0, elementSize: 8, makeResult: { DoubleStatistics() },
                work: { bytes, count, _, result in
                    result = DoubleStatistics()
                    result.add(bytes.bindMemory(to: Double.self))
                },
                consume: { statistics.merge($0) })
            trailing = try reader.forEachBlock { try pipeline.append($0) }
            try pipeline.finish()
            // Statistics are printed last, so a stream's trailing bytes still leave nothing printed.
            if let trailing, !options.allowsTrailingBytes { throw trailing }
            try writeStatistics(statistics, name: name, jsonName: jsonName)
        } else {
            var writer = DoubleListWriter(layout: options.layout, byteOrder: options.selection.byteOrder,
                                          jsonFileName: jsonName)
            // The label waits for the first values: an offset past the end of a stream prints nothing.
            var started = false
            func start() throws {
                if labelsInputs && options.layout.format != .json { try output.write("==> \(name) <==\n") }
                try writer.begin(to: output)
                started = true
            }
            if options.workers > 1 && (reader.remainingLength ?? Int.max) >= Self.parallelThreshold {
                let template = writer
                let output = output
                let pipeline = OrderedBlockPipeline<FormattedBlock>(
                    workers: options.workers, elementSize: 8,
                    makeResult: { FormattedBlock(capacity: DoubleListWriter.maxBytes(forValues: OrderedBlockPipeline<FormattedBlock>.blockBytes / 8)) },
                    work: { bytes, _, first, result in
                        result.count = template.format(bytes.bindMemory(to: Double.self), first: first, into: result.bytes)
                    },
                    consume: { try output.write(UnsafeRawBufferPointer(start: $0.bytes, count: $0.count)) })
                var formatted = 0
                trailing = try reader.forEachBlock { values in
                    if !started { try start() }
                    try pipeline.append(values)
                    formatted += values.count
                }
                try pipeline.finish()
                writer.advance(by: formatted)
            } else {
                trailing = try reader.forEachBlock { values in
                    if !started { try start() }
                    try writer.write(values, to: output)
                }
            }
            if !started { try start() }
            try writer.finish(to: output)
        }
        try output.flush()
        guard let trailing else { return [] }
        // Only a stream of unknown length gets here with an error: its values are already out.
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

    private func writeStatistics(_ statistics: DoubleStatistics, name: String, jsonName: String?) throws {
        switch options.layout.format {
        case .json:
            let object = DoubleStatisticsReport.json(statistics)
            if let jsonName {
                try output.write("{\"file\":\(JSONString.quoted(jsonName)),\"stats\":\(object)}\n")
            } else {
                try output.write(object + "\n")
            }
        case .text, .csv:
            if labelsInputs { try output.write("==> \(name) <==\n") }
            try output.write(DoubleStatisticsReport.text(statistics))
        }
    }
}
