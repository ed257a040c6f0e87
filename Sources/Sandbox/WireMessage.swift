import FileIO
import Batch
import JSON

/// What mediatool and a worker say to each other, as bytes: a job to do, the worker's start, and
/// how a job ended. The parent reads what a worker wrote as it reads any untrusted input: every
/// length is checked, and a message that does not parse is the worker's failure, not the parent's.
public enum WireMessage: Equatable, Sendable {
    /// The protocol this version speaks, in its hello (`ready`): raised whenever any message's
    /// bytes change meaning. 1 is the protocol before hellos said one (a `ready` of tag 2).
    public static let protocolVersion = 4

    /// Parent to worker, once, first: the limits it confines itself to, the run's (`--max-memory`
    /// for its address space, `--timeout` for each job's CPU time); `namesFlags`: its messages name
    /// the command line's flags (a run of the tool's) or the library's settings (a library's call).
    case setup(maxMemory: Int, timeout: Double, namesFlags: Bool)
    /// Parent to worker: do the job `spec` says (the caller's typed job, `JSONValueEncoder`'s tree)
    /// on the input (the first descriptor), writing the output (the second), on `threads` threads
    /// (0: every core). `outputs`: every output planned for the input, the one sent first. `head`:
    /// the input's first bytes as the parent read them (`InputFile.head`), which chose the worker:
    /// the worker tells the input's kind from the same bytes, not from a second read of a file
    /// that may have changed between the two.
    case job(input: String, head: [UInt8], outputs: [PlannedOutput], threads: Int, spec: JSONValue)
    /// Worker to parent, once, first: the worker protocol it speaks (`protocolVersion`), set up and
    /// confined (`MT_CONFINED_` flags), as process `pid` (which the parent takes only for a
    /// zygote's copy whose zygote did not say it, and only where it is the parent's child). A
    /// worker of another protocol is no worker of this version: ended, as the deployment's fault.
    case ready(protocol: Int, confinement: Int32, pid: Int32)
    /// Worker to parent, once: the sandbox could not be set up.
    case unconfined(reason: String)
    case done(fields: [JSONMember], warnings: [String])
    /// Worker to parent: the job's own error, its kind (`FailureKind`'s name) and its line.
    case failed(message: String, kind: String)
    /// Worker to parent, during a job: open another output (the parent checks it is the job's).
    case openOutput(path: String, namedByUser: Bool)
    /// Parent to worker: the output asked for, its descriptor along.
    case outputOpened
    case outputRefused(message: String)
    /// Worker to parent, once: the job found one of its outputs there already (`OutputError.exists`).
    case outputExists(path: String)
    /// Worker to parent, during a job: hold `bytes` of the run's memory budget, which all the
    /// run's workers share (`--max-memory`), before allocating them.
    case reserveMemory(bytes: Int)
    /// Parent to worker: held, under `token`.
    case memoryReserved(token: Int)
    /// Parent to worker: they can never be had (more than the whole budget).
    case memoryRefused
    /// Worker to parent: what `token` holds is free again (no answer).
    case releaseMemory(token: Int)
    /// Parent to zygote: start a worker with these decoders loaded, on the socket and standard
    /// error sent along.
    case startWorker(decoders: JobDecoders)
    /// Zygote to parent: started, as this process (the parent's child).
    case workerStarted(pid: Int32)
    /// Worker to parent, during a long job (a web video): how far it has got (no answer). A job
    /// that goes on making frames is not stuck: its time limit counts from its last progress.
    case progress(JobProgress)

    public var bytes: [UInt8] {
        var writer = WireWriter()
        switch self {
        case .job(let input, let head, let outputs, let threads, let spec):
            writer.byte(1)
            writer.string(input)
            writer.bytes(head)
            writer.integer(outputs.count)
            for output in outputs {
                writer.string(output.variant)
                writer.string(output.path)
            }
            writer.integer(threads)
            writer.value(spec)
        case .setup(let maxMemory, let timeout, let namesFlags):
            writer.byte(14)
            writer.integer(maxMemory)
            writer.integer(Int(Int64(bitPattern: timeout.bitPattern)))
            writer.byte(namesFlags ? 1 : 0)
        case .ready(let version, let confinement, let pid):
            // The version first, so that a parent of any version reads it before what may differ.
            writer.byte(17)
            writer.integer(version)
            writer.integer(Int(confinement))
            writer.integer(Int(pid))
        case .unconfined(let reason):
            writer.byte(3)
            writer.string(reason)
        case .done(let fields, let warnings):
            writer.byte(4)
            writer.value(.object(fields))
            writer.integer(warnings.count)
            warnings.forEach { writer.string($0) }
        case .failed(let message, let kind):
            writer.byte(5)
            writer.string(message)
            writer.string(kind)
        case .openOutput(let path, let namedByUser):
            writer.byte(6)
            writer.string(path)
            writer.byte(namedByUser ? 1 : 0)
        case .outputOpened:
            writer.byte(7)
        case .outputRefused(let message):
            writer.byte(8)
            writer.string(message)
        case .outputExists(let path):
            writer.byte(9)
            writer.string(path)
        case .reserveMemory(let bytes):
            writer.byte(10)
            writer.integer(bytes)
        case .memoryReserved(let token):
            writer.byte(11)
            writer.integer(token)
        case .memoryRefused:
            writer.byte(12)
        case .releaseMemory(let token):
            writer.byte(13)
            writer.integer(token)
        case .startWorker(let decoders):
            writer.byte(15)
            writer.string(decoders.rawValue)
        case .workerStarted(let pid):
            writer.byte(16)
            writer.integer(Int(pid))
        case .progress(let progress):
            writer.byte(18)
            writer.integer(progress.frames)
            writer.integer(progress.milliseconds)
            writer.integer(progress.totalMilliseconds ?? -1)
        }
        return writer.bytes
    }

    /// Nil for bytes that are no message.
    public init?(bytes: [UInt8]) {
        var reader = WireReader(bytes: bytes)
        guard let message = Self.read(&reader) else { return nil }
        // A hello of another protocol is read as far as its version, whatever follows.
        if case .ready(let version, _, _) = message, version != Self.protocolVersion, bytes.first == 17 {
            self = message
            return
        }
        guard reader.isAtEnd else { return nil }
        self = message
    }

    private static func read(_ reader: inout WireReader) -> WireMessage? {
        switch reader.byte() {
        case 1:
            guard let input = reader.string(), let head = reader.bytes(atMost: InputFile.headLength),
                  let count = reader.integer(), (0...OutputSet.limit).contains(count) else { return nil }
            var outputs: [PlannedOutput] = []
            for _ in 0..<count {
                guard let variant = reader.string(), let path = reader.string() else { return nil }
                outputs.append(PlannedOutput(variant: variant, path: path))
            }
            guard let threads = reader.integer(), (0...4096).contains(threads), let spec = reader.value(depth: 0) else { return nil }
            return .job(input: input, head: head, outputs: outputs, threads: threads, spec: spec)
        case 2:
            // The hello of a worker of protocol 1, which said no version.
            guard let flags = reader.integer(), let confinement = Int32(exactly: flags),
                  let pid = reader.integer().flatMap(Int32.init(exactly:)) else { return nil }
            return .ready(protocol: 1, confinement: confinement, pid: pid)
        case 17:
            guard let version = reader.integer() else { return nil }
            // Of another protocol, only its version is read: the rest may mean anything.
            guard version == protocolVersion else { return .ready(protocol: version, confinement: 0, pid: 0) }
            guard let flags = reader.integer(), let confinement = Int32(exactly: flags),
                  let pid = reader.integer().flatMap(Int32.init(exactly:)) else { return nil }
            return .ready(protocol: version, confinement: confinement, pid: pid)
        case 3:
            return reader.string().map { .unconfined(reason: $0) }
        case 4:
            guard case .object(let fields)? = reader.value(depth: 0), let count = reader.integer(), count >= 0,
                  count <= reader.remaining else { return nil }
            var warnings: [String] = []
            for _ in 0..<count {
                guard let warning = reader.string() else { return nil }
                warnings.append(warning)
            }
            return .done(fields: fields, warnings: warnings)
        case 5:
            guard let message = reader.string(), let kind = reader.string() else { return nil }
            return .failed(message: message, kind: kind)
        case 6:
            guard let path = reader.string(), let flag = reader.byte(), flag <= 1 else { return nil }
            return .openOutput(path: path, namedByUser: flag == 1)
        case 7:
            return .outputOpened
        case 8:
            return reader.string().map { .outputRefused(message: $0) }
        case 9:
            return reader.string().map { .outputExists(path: $0) }
        case 10:
            return reader.integer().flatMap { $0 >= 0 ? .reserveMemory(bytes: $0) : nil }
        case 11:
            return reader.integer().map { .memoryReserved(token: $0) }
        case 12:
            return .memoryRefused
        case 13:
            return reader.integer().map { .releaseMemory(token: $0) }
        case 14:
            guard let maxMemory = reader.integer(), maxMemory > 0, let bits = reader.integer() else { return nil }
            let timeout = Double(bitPattern: UInt64(bitPattern: Int64(bits)))
            guard timeout.isFinite, timeout > 0, let flags = reader.byte(), flags <= 1 else { return nil }
            return .setup(maxMemory: maxMemory, timeout: timeout, namesFlags: flags == 1)
        case 15:
            return reader.string().flatMap(JobDecoders.init(rawValue:)).map { .startWorker(decoders: $0) }
        case 16:
            guard let pid = reader.integer().flatMap(Int32.init(exactly:)), pid > 0 else { return nil }
            return .workerStarted(pid: pid)
        case 18:
            guard let frames = reader.integer(), let milliseconds = reader.integer(), let total = reader.integer(),
                  frames >= 0, milliseconds >= 0, total >= -1 else { return nil }
            return .progress(JobProgress(frames: frames, milliseconds: milliseconds, totalMilliseconds: total < 0 ? nil : total))
        default:
            return nil
        }
    }
}

struct WireWriter {
    private(set) var bytes: [UInt8] = []

    mutating func byte(_ value: UInt8) { bytes.append(value) }

    mutating func integer(_ value: Int) {
        withUnsafeBytes(of: Int64(value).littleEndian) { bytes += $0 }
    }

    mutating func string(_ value: String) {
        let utf8 = Array(value.utf8)
        integer(utf8.count)
        bytes += utf8
    }

    mutating func bytes(_ value: [UInt8]) {
        integer(value.count)
        bytes += value
    }

    mutating func value(_ value: JSONValue) {
        switch value {
        case .string(let text): byte(1); string(text)
        case .text(let text): byte(9); string(text)
        case .int(let number): byte(2); integer(number)
        case .double(let number): byte(3); integer(Int(Int64(bitPattern: number.bitPattern)))
        case .float(let number): byte(4); integer(Int(number.bitPattern))
        case .null: byte(5)
        case .bool(let value): byte(8); byte(value ? 1 : 0)
        case .array(let values):
            byte(6)
            integer(values.count)
            values.forEach { self.value($0) }
        case .object(let members):
            byte(7)
            integer(members.count)
            for member in members {
                string(member.name)
                self.value(member.value)
            }
        }
    }
}

struct WireReader {
    let bytes: [UInt8]
    private var offset = 0
    /// Values one message may hold: a byte on the wire (a null) is some 40 in memory, and a
    /// hostile worker's 60 MiB of them took its parent 1.6 GiB. A storyboard of a thousand
    /// cells reports some ten thousand.
    private var valuesLeft = 1 << 20

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { offset == bytes.count }
    var remaining: Int { bytes.count - offset }

    mutating func byte() -> UInt8? {
        guard offset < bytes.count else { return nil }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func integer() -> Int? {
        guard remaining >= 8 else { return nil }
        var value: UInt64 = 0
        for index in (0..<8).reversed() { value = value << 8 | UInt64(bytes[offset + index]) }
        offset += 8
        return Int(Int64(bitPattern: value))
    }

    mutating func string() -> String? {
        guard let count = integer(), count >= 0, count <= remaining else { return nil }
        defer { offset += count }
        return String(decoding: bytes[offset..<offset + count], as: UTF8.self)
    }

    mutating func bytes(atMost limit: Int) -> [UInt8]? {
        guard let count = integer(), count >= 0, count <= min(limit, remaining) else { return nil }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    /// Nested at most 16 deep: a report is flat, and a hostile worker gets no deep recursion.
    mutating func value(depth: Int) -> JSONValue? {
        guard depth < 16, valuesLeft > 0 else { return nil }
        valuesLeft -= 1
        switch byte() {
        case 1: return string().map(JSONValue.string)
        case 9: return string().map(JSONValue.text)
        case 2: return integer().map(JSONValue.int)
        case 3: return integer().map { .double(Double(bitPattern: UInt64(bitPattern: Int64($0)))) }
        case 4: return integer().flatMap { UInt32(exactly: $0) }.map { .float(Float(bitPattern: $0)) }
        case 5: return .null
        case 8: return byte().flatMap { $0 <= 1 ? .bool($0 == 1) : nil }
        case 6:
            guard let count = integer(), count >= 0, count <= remaining else { return nil }
            var values: [JSONValue] = []
            for _ in 0..<count {
                guard let value = value(depth: depth + 1) else { return nil }
                values.append(value)
            }
            return .array(values)
        case 7:
            guard let count = integer(), count >= 0, count <= remaining else { return nil }
            var members: [JSONMember] = []
            for _ in 0..<count {
                guard let name = string(), let value = value(depth: depth + 1) else { return nil }
                members.append(JSONMember(name, value))
            }
            return .object(members)
        default:
            return nil
        }
    }
}
