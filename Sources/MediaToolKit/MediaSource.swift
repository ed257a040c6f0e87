import Foundation
internal import FileIO

/// Where a picture or video is read from: a file, bytes in memory (an upload), or a descriptor
/// the caller opened. Every reader reads it as a file: bytes are copied once to a temporary file
/// that has no name, and a stream (a pipe, a FIFO) is copied the same way before it is decoded.
public struct MediaSource: Sendable, CustomStringConvertible {
    enum Storage: Sendable {
        case path(String)
        case bytes(Data)
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
    public static func data(_ data: Data, name: String = "<data>") -> MediaSource { MediaSource(storage: .bytes(data), name: name) }

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
            case .bytes(let data):
                file = try data.withUnsafeBytes { try InputFile(copying: $0, displayName: name) }
            case .descriptor(let descriptor):
                let copy = dup(descriptor)
                guard copy >= 0 else { throw SystemError("cannot read the descriptor") }
                _ = fcntl(copy, F_SETFD, FD_CLOEXEC)
                file = try InputFile(adopting: copy, displayName: name)
            }
            return try file.randomAccess(recognise: recognise)
        } catch {
            throw MediaError(error, file: name)
        }
    }
}
