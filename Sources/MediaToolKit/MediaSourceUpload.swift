import Foundation
internal import FileIO
internal import VideoThumbnails

extension MediaSource {
    /// An upload as it arrives (a request's body, chunk by chunk): written to a temporary file
    /// that has no name as it comes, never held whole in memory; refused from its first bytes
    /// (up to 1 MiB) when they are no picture or media this library reads, and as soon as it
    /// passes `maxBytes`, so a server stops reading a stranger's gigabytes early. Every call with
    /// the source returned reads that one file, which goes with the last copy of the source.
    ///
    /// Nothing is decoded here: the first bytes are only compared with the formats' signatures
    /// (and FFmpeg's probes), as the command line does with a stream.
    public static func upload<Chunks: AsyncSequence>(_ chunks: Chunks, name: String = "<upload>", maxBytes: Int,
                                                     configuration: MediaConfiguration = MediaConfiguration())
        async throws(MediaError) -> MediaSource where Chunks.Element: Sequence, Chunks.Element.Element == UInt8 {
        guard maxBytes > 0 else { throw .invalidRequest(file: name, reason: "a maxBytes of \(maxBytes): uploads take 1 byte or more") }
        // Made at the first bytes: a client that sends headers alone holds no file.
        var spool: UploadSpool?
        var pending: [UInt8] = []
        var recognised = false
        do {
            for try await chunk in chunks {
                pending.append(contentsOf: chunk)
                if pending.isEmpty { continue }
                if spool == nil { spool = try await BlockingWork.run(file: name, on: configuration.pool) { _ in try UploadSpool(name: name) } }
                let written = spool!.written
                if written + pending.count > maxBytes {
                    throw MediaError.overLimit(file: name, reason: "the upload went on past \(maxBytes) bytes (maxBytes)")
                }
                if !recognised && pending.count + written >= InputFile.recognitionLength {
                    try recognise(pending, name: name)
                    recognised = true
                }
                // Written in pieces of a MiB, on the library's threads: a disk's stall holds no
                // thread of Swift's concurrency.
                if pending.count >= 1 << 20 {
                    let (piece, target) = (pending, spool!)
                    pending = []
                    try await BlockingWork.run(file: name, on: configuration.pool) { _ in try target.write(piece) }
                }
            }
        } catch let error as MediaError {
            throw error
        } catch {
            throw Task.isCancelled ? .cancelled(file: name) : .unreadable(file: name, reason: "the upload could not be read: \(error)")
        }
        guard let spool else { throw .unsupportedFormat(file: name, reason: "\(InputError.empty)") }
        if !recognised { try recognise(pending, name: name) }
        let piece = pending
        try await BlockingWork.run(file: name, on: configuration.pool) { _ in try spool.write(piece) }
        return MediaSource(storage: .bytes(SpooledBytes(spooled: spool.take())), name: name)
    }

    private static func recognise(_ start: [UInt8], name: String) throws(MediaError) {
        do {
            try start.prefix(InputFile.recognitionLength).withUnsafeBytes { try Thumbnailer.recognise($0) }
        } catch {
            throw MediaError(error, file: name)
        }
    }
}

/// The temporary file an upload is written to: closed (and so gone) unless taken.
/// (Unchecked Sendable: written by one task at a time, the upload's loop awaiting each write.)
final class UploadSpool: @unchecked Sendable {
    private var descriptor: Int32
    private(set) var written = 0
    private let name: String

    init(name: String) throws {
        descriptor = try TemporaryFiles.unnamed(copyOf: name)
        self.name = name
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try FileSystem.writeAll($0, to: descriptor, target: "a temporary copy of \(name)") }
        written += bytes.count
    }

    /// The file's descriptor, now the caller's.
    func take() -> Int32 {
        defer { descriptor = -1 }
        return descriptor
    }
}
