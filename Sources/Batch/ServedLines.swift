import Glibc
import FileIO

/// The paths a server sends on a descriptor (standard input), one a line, each read as soon as its
/// line ends: `--serve` answers a path before the next one is sent, so nothing may wait for more.
public struct ServedLines: ~Copyable {
    /// Longer than any path the system opens (PATH_MAX is 4096): a longer line is no path, and
    /// what is held for one stays bounded whatever a sender writes.
    public static let longestLine = 64 << 10

    private let descriptor: Int32
    private var held: [UInt8] = []
    private var ended = false

    public init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    public enum Line {
        case path(String)
        /// A line past `longestLine` bytes, read past to its end.
        case tooLong
        /// A line with nothing on it: answered too, so that a sender reading a line a line is
        /// never left waiting.
        case empty
    }

    /// The next line, or nil once the descriptor has ended (or failed).
    public mutating func next() -> Line? {
        var skipping = false
        while true {
            if let end = held.firstIndex(of: UInt8(ascii: "\n")) {
                var line = held[..<end]
                held.removeFirst(end + 1)
                // Whole in what was read so far, it may still be longer than any path.
                if skipping || line.count > Self.longestLine { return .tooLong }
                // A carriage return before the line feed is not part of the name (as --files-from).
                if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
                return line.isEmpty ? .empty : .path(PathBytes.string(line))
            }
            if held.count > Self.longestLine {
                held.removeAll(keepingCapacity: true)
                skipping = true
            }
            if ended {
                // A last line without its line feed is a line.
                guard !held.isEmpty || skipping else { return nil }
                defer { held = [] }
                if skipping || held.count > Self.longestLine { return .tooLong }
                return .path(PathBytes.string(held[...]))
            }
            var chunk = [UInt8](repeating: 0, count: 1 << 14)
            let count = chunk.withUnsafeMutableBytes { buffer in
                FileSystem.retryingInterrupted { Glibc.read(descriptor, buffer.baseAddress, buffer.count) }
            }
            if count <= 0 {
                ended = true
            } else {
                held += chunk[..<count]
            }
        }
    }
}
