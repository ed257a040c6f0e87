import Foundation
import Synchronization
internal import FileIO

/// Where a picture or video is read from: a file, bytes in memory (an upload), or a descriptor
/// the caller opened. Every reader reads it as a file: bytes are copied once, at the first call that
/// reads them, to a temporary file that has no name, which every later call with this source (or a
/// copy of it) reads again and which goes when the last copy of the source goes; a stream (a pipe, a
/// FIFO) is copied the same way, once a call, before it is decoded.
public struct MediaSource: Sendable, CustomStringConvertible {
    enum Storage: Sendable {
        case path(String)
        case bytes(SpooledBytes)
        case descriptor(Int32)
        /// A source that cannot be read, refused at the first call (a URL that is no file's).
        case refused(String)
    }

    let storage: Storage
    /// What errors call it: the path, or the name given.
    public let name: String

    /// A file by its URL. A URL that is not a `file:` URL is refused when a call reads it: nothing is
    /// fetched, and its path is never taken for a local one.
    public static func file(_ url: URL) -> MediaSource {
        do {
            return path(try filePath(of: url))
        } catch {
            return MediaSource(storage: .refused(error.reason), name: url.absoluteString)
        }
    }

    /// A file by its path. `-` is a file named `-`, not standard input.
    public static func path(_ path: String) -> MediaSource { MediaSource(storage: .path(path), name: path) }

    /// Bytes in memory, such as an upload's body; `name` is what errors call them.
    public static func data(_ data: Data, name: String = "<data>") -> MediaSource {
        MediaSource(storage: .bytes(SpooledBytes(data)), name: name)
    }

    /// A descriptor the caller opened and keeps: it is duplicated, never closed, and read at offsets
    /// (its own position is not moved).
    public static func fileDescriptor(_ descriptor: Int32, name: String = "<descriptor>") -> MediaSource {
        MediaSource(storage: .descriptor(descriptor), name: name)
    }

    public var description: String { name }

    /// The caller's descriptor opened anew (through `/proc/self/fd`), with a read position of its own:
    /// a duplicate would share the caller's, which readers move, and calls side by side would move
    /// each other's. Where /proc is not mounted, a duplicate.
    static func reopen(_ descriptor: Int32) throws(SystemError) -> Int32 {
        guard descriptor >= 0, fcntl(descriptor, F_GETFD) >= 0 else { throw SystemError("cannot read the descriptor", code: EBADF) }
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG {
            let reopened = FileSystem.open("/proc/self/fd/\(descriptor)", O_RDONLY | O_CLOEXEC)
            if reopened >= 0 { return reopened }
        }
        let copy = fcntl(descriptor, F_DUPFD_CLOEXEC, 0)
        guard copy >= 0 else { throw SystemError("cannot read the descriptor") }
        return copy
    }

    /// Opened for reading at any offset; `recognise` refuses a stream's first bytes before it is
    /// copied; `stop` ends a stream's copy (the call's cancellation and deadline).
    func open(recognise: (@Sendable (UnsafeRawBufferPointer) throws -> Void)?, stop: (() throws -> Void)? = nil) throws(MediaError) -> InputFile {
        do {
            let file: InputFile
            switch storage {
            case .path(let path):
                file = try InputFile(path: path == "-" ? "./-" : path)
            case .bytes(let bytes):
                file = try bytes.open(name: name)
            case .descriptor(let descriptor):
                file = try InputFile(adopting: try Self.reopen(descriptor), displayName: name)
            case .refused(let reason):
                throw MediaError.invalidRequest(file: name, reason: reason)
            }
            return try file.randomAccess(recognise: recognise, stop: stop)
        } catch {
            throw MediaError(error, file: name)
        }
    }
}

/// Bytes given in memory, and the temporary file that holds a copy once a call has read them.
final class SpooledBytes: Sendable {
    private let data: Data
    private let copy = Mutex<Int32?>(nil)

    init(_ data: Data) {
        self.data = data
    }

    /// Bytes already in a temporary file of their own (an upload written as it came), now this one's.
    init(spooled descriptor: Int32) {
        data = Data()
        copy.withLock { $0 = descriptor }
    }

    deinit {
        copy.withLock { descriptor in
            if let descriptor { close(descriptor) }
        }
    }

    /// The copy opened anew, with a read position of its own (through `/proc/self/fd`), so that
    /// calls read it side by side; where /proc is not mounted, a copy of the call's own.
    func open(name: String) throws -> InputFile {
        let descriptor = try copy.withLock { copy throws -> Int32 in
            if let copy { return copy }
            let made = try TemporaryFiles.unnamed(copyOf: name)
            do {
                try data.withUnsafeBytes { try FileSystem.writeAll($0, to: made, target: "a temporary copy of \(name)") }
            } catch {
                close(made)
                throw error
            }
            copy = made
            return made
        }
        let reopened = FileSystem.open("/proc/self/fd/\(descriptor)", O_RDONLY | O_CLOEXEC)
        guard reopened >= 0 else {
            if data.isEmpty { return try InputFile(adopting: try FileSystem.valueOrErrno("cannot read \(name)") { fcntl(descriptor, F_DUPFD_CLOEXEC, 0) }, displayName: name) }
            return try data.withUnsafeBytes { try InputFile(copying: $0, displayName: name) }
        }
        return try InputFile(adopting: reopened, displayName: name)
    }
}

/// The path of a `file:` URL, its bytes kept as they are: its percent-encoded path decoded here,
/// since Foundation's own decoding drops a name's bytes that are not UTF-8 (`%FF`), which
/// `PathBytes` carries. Any other URL is refused.
func filePath(of url: URL) throws(MediaError) -> String {
    guard url.isFileURL else {
        throw .invalidRequest(file: url.absoluteString, reason: "not a file URL: pictures and videos are read from and written to files")
    }
    let encoded = Array(url.absoluteURL.standardizedFileURL.path(percentEncoded: true).utf8)
    var bytes: [UInt8] = []
    var index = 0
    while index < encoded.count {
        if encoded[index] == UInt8(ascii: "%"), index + 2 < encoded.count,
           let byte = UInt8(String(decoding: encoded[(index + 1)...(index + 2)], as: UTF8.self), radix: 16) {
            bytes.append(byte)
            index += 3
        } else {
            bytes.append(encoded[index])
            index += 1
        }
    }
    return PathBytes.string(bytes)
}
