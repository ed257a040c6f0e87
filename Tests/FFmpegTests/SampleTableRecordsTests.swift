@testable import FFmpeg
import FileIO
import Foundation
import Testing

/// What FFmpeg holds beside the samples' entries, from boxes made here byte by byte: a record for
/// each fragment and track, and no fragment read from inside the media data.
@Suite struct SampleTableRecordsTests {
    static func box(_ type: String, _ payload: [UInt8] = []) -> [UInt8] {
        box(type: Array(type.utf8), payload)
    }

    /// A box whose type is any four bytes, as iTunes's `©nam` (0xA9 first).
    static func box(type: [UInt8], _ payload: [UInt8]) -> [UInt8] {
        let size = UInt32(payload.count + 8)
        return (0..<4).map { UInt8(truncatingIfNeeded: size >> (24 - 8 * UInt32($0))) } + type + payload
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

    /// A `senc` claiming encryption records for 2 million samples (FFmpeg reads no byte for each
    /// where the initialisation vector is the track's: a 3.5 KB file took 949 MiB).
    /// FFmpeg keeps them only for a track with encryption defaults (`tenc` or `schm`), anywhere.
    @Test(arguments: ["tenc", "schm"])
    func encryptedSamplesAreCounted(defaults: String) throws {
        let senc = Self.box("senc", Self.be32(0) + Self.be32(2_000_000))
        let encryption = Self.box(defaults, [UInt8](repeating: 0, count: 24))
        let index = try Self.index(of: Self.ftyp + Self.box("moov", Self.box("trak", encryption + senc)))
        #expect(index.entries >= 2_000_000 * 15)
    }

    /// A `saiz` makes a record for each sample it sizes, as a `senc` does (a byte of the file
    /// each at most): counted the same.
    @Test func auxiliaryInformationSizesAreCounted() throws {
        // Version and flags (4), the default size (1, 0: a size a sample follows), the count (4).
        let saiz = Self.box("saiz", Self.be32(0) + [0] + Self.be32(2_000_000))
        let encryption = Self.box("tenc", [UInt8](repeating: 0, count: 24))
        let index = try Self.index(of: Self.ftyp + Self.box("moov", Self.box("trak", encryption + saiz)))
        #expect(index.entries >= 2_000_000 * 15)
    }

    /// Text that reads as a `trun` or a `senc` (a title's "Elephant trunk", "presence") claims
    /// nothing: FFmpeg refuses a `trun` before a `tfhd` and skips a `senc` of a track without
    /// defaults; and where those are found (a fragmented file's, or text: "sentence" holds a
    /// `tenc`), four letters read as a count say more than FFmpeg allocates for, so it refuses
    /// the box first. A count a real box gives (a run after its fragment's header) still counts
    /// beside the text.
    @Test(arguments: [(false, false), (true, false), (true, true)])
    func wordsReadAsClaimsClaimNothing(withPrerequisites: Bool, withRealRun: Bool) throws {
        let samples = Self.box("stsz", Self.be32(0) + Self.be32(1) + Self.be32(100))
        let title = Array("Elephant trunk at the zoo, in the presence of mind".utf8)
        let metadata = Self.box("udta", Self.box("meta", Self.be32(0) + Self.box("ilst", Self.box(type: [0xA9] + Array("nam".utf8), Self.box("data", Self.be32(1) + Self.be32(0) + title)))))
        let prerequisites = withPrerequisites ? Self.box("mvex", Self.box("trex", Self.be32(0) + Self.be32(1) + [UInt8](repeating: 0, count: 16))) + Self.box("tfhd", Self.be32(0) + Self.be32(1))
            + Self.box("tenc", [UInt8](repeating: 0, count: 24)) : []
        let fragment = withRealRun ? Self.box("moof", Self.box("traf", Self.box("tfhd", Self.be32(0) + Self.be32(1))
                                                                + Self.box("trun", Self.be32(0) + Self.be32(20_000_000)))) : []
        let bytes = Self.ftyp + Self.box("moov", Self.box("trak", samples) + prerequisites + metadata) + fragment
            + Self.box("mdat", [UInt8](repeating: 0, count: 100))
        if withRealRun {
            #expect(throws: MP4Error.self) { _ = try Self.index(of: bytes) }
        } else {
            #expect(try Self.index(of: bytes).entries == 100)
        }
    }

    /// FFmpeg reads a file again from its first byte where it found no movie, keeping what the
    /// first read learnt: here a `free` box that starts as a movie header (read as the movie the
    /// second time only) holds a run of 30 million samples before any fragment header of its
    /// own, and the first read's last fragment left a header naming a track with defaults set
    /// (the seventh red team's 4 KB file took 977 MiB, "ok"). Counted.
    @Test func aRunReadAgainAfterTheFirstReadsHeaderIsCounted() throws {
        let header = Self.box("mvhd", [UInt8](repeating: 0, count: 100))
        let hidden = Self.box("free", header + Self.box("trak", Self.box("stsz", Self.be32(0) + Self.be32(1) + Self.be32(1)))
                                 + Self.box("trun", Self.be32(5) + Self.be32(30_000_000) + Self.be32(0) + Self.be32(0)))
        let defaults = Self.box("trex", Self.be32(0) + Self.be32(1) + [UInt8](repeating: 0, count: 16))
        let fragment = Self.box("moof", Self.box("traf", Self.box("tfhd", Self.be32(0) + Self.be32(1))
                                                    + Self.box("trun", Self.be32(0) + Self.be32(1))))
        let bytes = Self.ftyp + hidden + defaults + fragment + Self.box("mdat", [UInt8](repeating: 0, count: 100))
        #expect(throws: MP4Error.self) { _ = try Self.index(of: bytes) }
        // The same with a movie of its own: no second read, and the hidden box is padding.
        let movie = Self.box("moov", header + Self.box("mvex", defaults))
        #expect(try Self.index(of: Self.ftyp + movie + hidden + fragment + Self.box("mdat", [UInt8](repeating: 0, count: 100))).entries < 100)
    }

    /// A fragment before the movie that gives its track defaults: FFmpeg reads it again after a
    /// seek, the defaults known by then. Its run is counted though the `trex` comes after it.
    @Test func aRunBeforeItsTracksDefaultsIsCounted() throws {
        let fragment = Self.box("moof", Self.box("traf", Self.box("tfhd", Self.be32(0) + Self.be32(7))
                                                    + Self.box("trun", Self.be32(0) + Self.be32(30_000_000))))
        let movie = Self.box("moov", Self.box("mvhd", [UInt8](repeating: 0, count: 100))
                                 + Self.box("mvex", Self.box("trex", Self.be32(0) + Self.be32(7) + [UInt8](repeating: 0, count: 16))))
        #expect(throws: MP4Error.self) { _ = try Self.index(of: Self.ftyp + fragment + movie + Self.box("mdat", [UInt8](repeating: 0, count: 100))) }
    }

    /// A file that starts "ID3" 04 "moov": an ID3v2.4 tag whose size runs past the file, after
    /// which FFmpeg finds no movie, and reads the file again from its first byte, where the same
    /// bytes are a `moov` box (the fifth red team's 3.4 KB file took 1 GB "ok"). Searched from
    /// there too.
    @Test func aMovieThatIsAlsoAnID3TagIsSearched() throws {
        let claim = Self.box("trak", Self.box("stsz", Self.be32(0) + Self.be32(1) + Self.be32(40_000_000)))
        // The tag's header is the box's size ("ID3" 04) and type ("moov", the tag's revision,
        // flags and the first half of its size), then the first two bytes of the first child's size.
        #expect(claim.prefix(2) == [0, 0])
        let bytes = Array("ID3".utf8) + [4] + Array("moov".utf8) + claim + Self.box("mdat", [UInt8](repeating: 0, count: 100))
        #expect(throws: MP4Error.self) { _ = try Self.index(of: bytes) }
    }

    /// Four bytes that read as a `trak` between a track's edit list and its samples (in a box
    /// FFmpeg skips) part them no more: the samples are counted again for each edit.
    @Test func aFalseTrackPartsNoEditsFromTheirSamples() throws {
        let stsz = Self.box("stsz", Self.be32(0) + Self.be32(1) + Self.be32(20_000))
        let elst = Self.box("elst", Self.be32(0) + Self.be32(2000) + [UInt8](repeating: 0, count: 2000 * 12))
        let decoy = Self.box("xxxx", Self.box("trak"))
        let index = try Self.index(of: Self.ftyp + Self.box("moov", Self.box("trak", Self.box("edts", elst) + decoy + stsz))
                                       + Self.box("mdat", [UInt8](repeating: 0, count: 20_000)))
        #expect(index.entries >= 20_000 * 2000)
    }

    /// A `sidx` inside the movie (FFmpeg follows one wherever it meets it) that points at a
    /// fragment hidden in the media data is refused.
    @Test func aNestedSegmentIndexPointingAtAHiddenFragmentIsRefused() throws {
        let hidden = Self.box("moof", Self.box("traf", Self.box("trun", Self.be32(0) + Self.be32(20_000_000))))
        let media = Self.box("mdat", [UInt8](repeating: 0, count: 16) + hidden)
        // The reference starts at the sidx's end plus its first offset: the hidden moof, 8 + 16
        // bytes into the media data, which follows the movie.
        let reference = Self.be32(hidden.count) + Self.be32(1000) + Self.be32(0x9000_0000)
        let sidxLength = 8 + 24 + 12
        let movieLength = 8 + 8 + sidxLength
        let firstOffset = 8 + 16
        let sidx = Self.box("sidx", Self.be32(0) + Self.be32(1) + Self.be32(1000) + Self.be32(0) + Self.be32(firstOffset)
                                    + [0, 0, 0, 1] + reference)
        #expect(sidx.count == sidxLength)
        let movie = Self.box("moov", Self.box("trak") + sidx)
        #expect(movie.count == movieLength)
        #expect(throws: MP4Error.self) { _ = try Self.index(of: Self.ftyp + movie + media) }
    }

    /// A nested `sidx` (version 1) whose first offset is the largest a file can say: its target
    /// is past the file, looked at without overflowing.
    @Test func aSegmentIndexPointingPastAnyFileIsNoCrash() throws {
        let reference = Self.be32(64) + Self.be32(1000) + Self.be32(0x9000_0000)
        let sidx = Self.box("sidx", [1, 0, 0, 0] + Self.be32(1) + Self.be32(1000) + [UInt8](repeating: 0, count: 8)
                                    + [0x7F] + [UInt8](repeating: 0xFF, count: 7) + [0, 0, 0, 1] + reference)
        let index = try Self.index(of: Self.ftyp + Self.box("moov", Self.box("trak") + sidx))
        #expect(index.entries >= 1)
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
