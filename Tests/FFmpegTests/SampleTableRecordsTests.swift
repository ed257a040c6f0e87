@testable import FFmpeg
import FileIO
import Foundation
import Testing

/// What FFmpeg holds beside the samples' entries, from boxes made here byte by byte: a record for
/// each fragment and track, and no fragment read from inside the media data.
@Suite struct SampleTableRecordsTests {
    static func box(_ type: String, _ payload: [UInt8] = []) -> [UInt8] {
        let size = UInt32(payload.count + 8)
        return (0..<4).map { UInt8(truncatingIfNeeded: size >> (24 - 8 * UInt32($0))) } + Array(type.utf8) + payload
    }

    static func be32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }

    static func index(of bytes: [UInt8]) throws -> MP4SampleTables.Index {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("records-\(UUID().uuidString).mp4").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try MP4SampleTables.index(of: try InputFile(path: path))
    }

    static let ftyp = box("ftyp", Array("isom".utf8) + be32(0) + Array("isomiso6".utf8))

    /// 999 empty tracks and 20,000 empty fragments (a 195 KB file took 1099 MiB): a record each.
    @Test func eachFragmentHoldsARecordForEveryTrack() throws {
        let movie = Self.box("moov", (0..<999).flatMap { _ in Self.box("trak") })
        let fragments = (0..<20_000).flatMap { _ in Self.box("moof") }
        let index = try Self.index(of: Self.ftyp + movie + fragments)
        #expect(index.entries >= 20_000 * 999 * 2)
    }

    /// A top-level `sidx` whose reference points inside the media data, where FFmpeg would read a
    /// fragment when it seeks (a 4.2 KB file's hidden `trun` took 644 MiB), is refused; one that
    /// points at the fragment after it is read.
    @Test(arguments: [(0, true), (12, false)])
    func aSegmentIndexPointsAtFragmentsOnly(firstOffset: Int, isRead: Bool) throws {
        let movie = Self.box("moov", Self.box("trak"))
        let fragment = Self.box("moof") + Self.box("mdat", [UInt8](repeating: 0, count: 64))
        // Version 0: reference ID, timescale, earliest time, first offset, reserved (2), count (2),
        // then a reference: its size (4), duration (4), SAP (4).
        let reference = Self.be32(fragment.count) + Self.be32(1000) + Self.be32(0x9000_0000)
        let sidx = Self.box("sidx", Self.be32(0) + Self.be32(1) + Self.be32(1000) + Self.be32(0) + Self.be32(firstOffset)
                                    + [0, 0, 0, 1] + reference)
        let bytes = Self.ftyp + movie + sidx + fragment
        if isRead {
            #expect(try Self.index(of: bytes).entries >= 2)
        } else {
            #expect(throws: MP4Error.segmentIndexPointsInside(offset: Self.ftyp.count + movie.count + sidx.count + 12)) {
                _ = try Self.index(of: bytes)
            }
        }
    }
}
