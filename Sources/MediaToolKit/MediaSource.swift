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
    }

    let storage: Storage
    /// What errors call it: the path, or the name given.
    public let name: String

    /// A file by its URL (a `file:` URL).
    public static func file(_ url: URL) -> MediaSource { path(url.path) }

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

    /// Opened for reading at any offset; `recognise` refuses a stream's first bytes before it is copied.
    func open(recognise: (@Sendable (UnsafeRawBufferPointer) throws -> Void)?) throws(MediaError) -> InputFile {
        do {
            let file: InputFile
            switch storage {
            case .path(let path):
                file = try InputFile(path: path == "-" ? "./-" : path)
            case .bytes(let bytes):
                file = try bytes.open(name: name)
            case .descriptor(let descriptor):
                let copy = fcntl(descriptor, F_DUPFD_CLOEXEC, 0)
                guard copy >= 0 else { throw SystemError("cannot read the descriptor") }
                file = try InputFile(adopting: copy, displayName: name)
            }
            return try file.randomAccess(recognise: recognise)
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
        guard reopened >= 0 else { return try data.withUnsafeBytes { try InputFile(copying: $0, displayName: name) } }
        return try InputFile(adopting: reopened, displayName: name)
    }
}
