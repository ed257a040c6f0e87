import Foundation
import PNGCodec
import Testing
import TestSupport

/// The red team's leaks (issue 56's review): places a position hides that strip must find, each
/// built here byte by byte or by exiftool, each checked by exiftool after strip.
@Suite struct StripHostileInputTests {
    static func u16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
    static func u32(_ value: Int) -> [UInt8] { u16(value >> 16) + u16(value & 0xFFFF) }

    /// A big-endian TIFF block: IFD0 at 8 with one entry (`first`), the directory it leads to at 26
    /// with a GPS pointer, the GPS directory at 44 (latitude 48°51' N).
    static func exif(gpsThrough first: (tag: Int, viaNextLink: Bool)) -> [UInt8] {
        let ifd0 = first.viaNextLink
            ? u16(1) + u16(0x010F) + u16(2) + u32(4) + Array("Cam\0".utf8) + u32(26)
            : u16(1) + u16(first.tag) + u16(4) + u32(1) + u32(26) + u32(0)
        let second = u16(1) + u16(0x8825) + u16(4) + u32(1) + u32(44) + u32(0)
        let gps = u16(2) + u16(1) + u16(2) + u32(2) + Array("N\0\0\0".utf8) + u16(2) + u16(5) + u32(3) + u32(74) + u32(0)
        let rationals = u32(48) + u32(1) + u32(51) + u32(1) + u32(0) + u32(1)
        return Array("MM".utf8) + [0, 42] + u32(8) + ifd0 + second + gps + rationals
    }

    /// `segment` (marker and payload) put after a JPEG's SOI.
    static func jpeg(with marker: UInt8, payload: [UInt8]) throws -> [UInt8] {
        var bytes = [UInt8](try Fixture.data("pictures/gray.jpg"))
        bytes.insert(contentsOf: [0xFF, marker] + u16(payload.count + 2) + payload, at: 2)
        return bytes
    }

    static func strip(_ bytes: [UInt8], named name: String, in folder: URL) throws -> (input: String, output: String, run: ToolRun) {
        let input = folder.appendingPathComponent(name).path, output = folder.appendingPathComponent("stripped-" + name).path
        try Data(bytes).write(to: URL(fileURLWithPath: input))
        return (input, output, try ToolRun.run(["strip", input, "-o", output]))
    }

    /// A GPS directory pointed at from IFD1 or from the Exif directory, where exiftool reads it.
    @Test(.enabled(if: try StripTests.referencesInstalled), arguments: ["ifd1", "exif"])
    func aGPSDirectoryAnywhereIsRemoved(from place: String) throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let block = Self.exif(gpsThrough: place == "ifd1" ? (0, true) : (0x8769, false))
        let (input, output, run) = try Self.strip(try Self.jpeg(with: 0xE1, payload: Array("Exif\0\0".utf8) + block), named: "\(place).jpg", in: folder)
        try #require(StripTests.revealing(try StripTests.tags(of: input)).contains { $0.contains("GPSLatitude") })
        #expect(run.status == 0, "\(run.standardError)")
        let left = StripTests.revealing(try StripTests.tags(of: output))
        #expect(left.isEmpty, "\(left)")
    }

    /// XMP under a prefix of its own bound to photoshop's namespace, as an attribute and as an element.
    @Test(.enabled(if: try StripTests.referencesInstalled), arguments: [
        #"<rdf:Description rdf:about="" xmlns:zz="http://ns.adobe.com/photoshop/1.0/" zz:City="Paris"/>"#,
        #"<rdf:Description rdf:about="" xmlns:ps="http://ns.adobe.com/photoshop/1.0/"><ps:City>Paris</ps:City></rdf:Description>"#,
    ])
    func aPlaceUnderAnyPrefixIsRemoved(description: String) throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let packet = #"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">"#
            + description + "</rdf:RDF></x:xmpmeta>"
        let bytes = try Self.jpeg(with: 0xE1, payload: Array("http://ns.adobe.com/xap/1.0/\0".utf8) + Array(packet.utf8))
        let (input, output, run) = try Self.strip(bytes, named: "xmp.jpg", in: folder)
        try #require(try StripTests.tags(of: input)["XMP-photoshop:City"] == "Paris")
        #expect(run.status == 0, "\(run.standardError)")
        #expect(StripTests.revealing(try StripTests.tags(of: output)).isEmpty)
    }

    /// A located photo appended to another (`cat a.jpg b.jpg`), and a thumbnail that is a located
    /// JPEG itself: both lose the position, the appended one where it lies.
    @Test(.enabled(if: try StripTests.referencesInstalled))
    func appendedPhotosAndThumbnailsLoseTheirPositionToo() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let located = try StripTests.located("pictures/camera.jpg", as: "located.jpg", in: folder, tags: StripTests.stillTags)
        let first = [UInt8](try Fixture.data("pictures/gray.jpg")), second = [UInt8](try Data(contentsOf: URL(fileURLWithPath: located)))
        // Between them, bytes that are neither a JPEG nor an MP4: what they say cannot be told, so they go.
        let junk = Array("lat 48.8566 lon 2.3522".utf8)
        let (_, output, run) = try Self.strip(first + junk + second, named: "appended.jpg", in: folder)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(!String(decoding: try Data(contentsOf: URL(fileURLWithPath: output)), as: UTF8.self).contains("48.8566"))
        let tail = folder.appendingPathComponent("tail.jpg")
        try Data(try Data(contentsOf: URL(fileURLWithPath: output)).suffix(second.count)).write(to: tail)
        #expect(StripTests.revealing(try StripTests.tags(of: tail.path)).isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)).count == first.count + junk.count + second.count)

        let withThumbnail = try StripTests.located("pictures/gray.jpg", as: "thumbnailed.jpg", in: folder,
                                                   tags: ["-Make=Cam", "-ThumbnailImage<=\(located)"])
        let thumbnailOutput = folder.appendingPathComponent("thumbnail-out.jpg").path
        #expect(try ToolRun.run(["strip", withThumbnail, "-o", thumbnailOutput]).status == 0)
        let extracted = try ChildProcess.run(StripTests.exiftool, ["-b", "-ThumbnailImage", thumbnailOutput])
        #expect(!String(decoding: extracted.standardOutput, as: UTF8.self).contains("Paris") && extracted.standardOutput.count < 100)
    }

    /// PNG: an eXIf chunk that keeps JPEG's "Exif\0\0", and XMP in a tEXt chunk.
    @Test(.enabled(if: try StripTests.referencesInstalled))
    func pngMetadataInItsOtherSpellingsIsRemoved() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return Self.u32(data.count) + body + Self.u32(Int(PNGChunks.checksum(body)))
        }
        let png = [UInt8](try Fixture.data("pictures/gradient.png"))
        let afterHeader = 8 + 25
        let packet = #"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" photoshop:City="Paris"/></rdf:RDF></x:xmpmeta>"#
        for (name, inserted) in [("prefixed.png", chunk("eXIf", Array("Exif\0\0".utf8) + Self.exif(gpsThrough: (0x8769, false)))),
                                 ("text.png", chunk("tEXt", Array("XML:com.adobe.xmp\0".utf8) + Array(packet.utf8)))] {
            var bytes = png
            bytes.insert(contentsOf: inserted, at: afterHeader)
            let (input, output, run) = try Self.strip(bytes, named: name, in: folder)
            try #require(!StripTests.revealing(try StripTests.tags(of: input)).isEmpty, "\(name)")
            #expect(run.status == 0, "\(name): \(run.standardError)")
            let left = StripTests.revealing(try StripTests.tags(of: output))
            #expect(left.isEmpty, "\(name): \(left)")
        }
    }

    /// XMP behind "XMP\0" or in UTF-16, and a PNG text chunk named Location: exiftool reads each
    /// as a place, and after strip finds none.
    @Test(.enabled(if: try StripTests.referencesInstalled))
    func placesInLessUsualSpellingsAreRemoved() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let packet = #"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" photoshop:City="Paris"/></rdf:RDF></x:xmpmeta>"#
        let wrapped = "<?xpacket begin=\"\u{FEFF}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>" + packet + "<?xpacket end=\"w\"?>"
        let utf16: [UInt8] = wrapped.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        var png = [UInt8](try Fixture.data("pictures/gradient.png"))
        let text = Array("tEXtLocation\0Paris, 3 rue Example".utf8)
        png.insert(contentsOf: Self.u32(text.count - 4) + text + Self.u32(Int(PNGChunks.checksum(text))), at: 8 + 25)
        let cases: [(String, [UInt8])] = [
            ("short.jpg", try Self.jpeg(with: 0xE1, payload: Array("XMP\0".utf8) + Array(packet.utf8))),
            ("utf16.jpg", try Self.jpeg(with: 0xE1, payload: Array("http://ns.adobe.com/xap/1.0/\0".utf8) + utf16)),
            ("location.png", png),
        ]
        for (name, bytes) in cases {
            let (input, output, run) = try Self.strip(bytes, named: name, in: folder)
            try #require(!StripTests.revealing(try StripTests.tags(of: input)).isEmpty, "\(name)")
            #expect(run.status == 0, "\(name): \(run.standardError)")
            let left = StripTests.revealing(try StripTests.tags(of: output))
            #expect(left.isEmpty, "\(name): \(left)")
        }
    }

    /// strip reads a structure whole only within its limit (64 MiB): a TIFF, read whole, of 65 MiB
    /// (a sparse file: no disk) is refused as over it, in one line, and nothing is written.
    @Test func aStructureLargerThanStripReadsIsRefused() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("large.tif").path
        try Data([0x49, 0x49, 0x2A, 0x00, 0x08, 0, 0, 0, 0, 0, 0, 0, 0, 0]).write(to: URL(fileURLWithPath: input))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: input))
        try handle.truncate(atOffset: 65 << 20)
        try handle.close()
        let output = folder.appendingPathComponent("out.tif").path
        let run = try ToolRun.run(["strip", input, "-o", output])
        #expect(run.status == 1 && StripTests.failureLines(run, naming: "large.tif").count == 1, "\(run.standardError)")
        #expect(run.standardError.contains("larger than"))
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    /// A JPEG whose segments before its scan hold more than strip holds at once (a thousand
    /// 64 KiB APP1s: a sparse file) is refused as over the limit, not read whole into memory.
    @Test func aJPEGOfEndlessSegmentsIsRefusedAsOverTheLimit() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("segments.jpg")
        try Data([0xFF, 0xD8]).write(to: input)
        let handle = try FileHandle(forWritingTo: input)
        for index in 0..<1100 {
            try handle.seek(toOffset: UInt64(2 + index * 65537))
            try handle.write(contentsOf: Data([0xFF, 0xE1, 0xFF, 0xFF]))
        }
        try handle.truncate(atOffset: UInt64(2 + 1100 * 65537))
        try handle.close()
        let output = folder.appendingPathComponent("out.jpg").path
        let run = try ToolRun.run(["strip", input.path, "-o", output])
        #expect(run.status == 1 && run.standardError.contains("larger than"), "\(run.standardError)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }
}
