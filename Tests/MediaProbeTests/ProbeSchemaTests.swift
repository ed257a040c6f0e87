import Foundation
import Imaging
import JSON
@testable import MediaProbe
import Testing
import TestSupport

/// `probe`'s line is written in one place (`ProbeResult.fields`); `docs/probe-schema.json` is made
/// from it, and what reads the line is checked against that file: docs/probe.md here, the
/// library's `ProbeReport` in MediaToolKitTests, the gem's analyzer in its own tests.
/// `MEDIATOOL_WRITE_PROBE_SCHEMA=1` writes the file anew after the line changed.
@Suite struct ProbeSchemaTests {
    static let repository = RepositoryFixtures.root.deletingLastPathComponent()
    static let schemaPath = repository.appendingPathComponent("docs/probe-schema.json").path

    /// A picture and a video with every field the line has set, and one with none: what each
    /// field holds, and which may be null.
    static var examples: (full: [ProbeResult], bare: ProbeResult) {
        var video = ProbeResult(kind: .video, format: "mp4", mime: "video/mp4")
        (video.width, video.height, video.codedWidth, video.codedHeight) = (1, 2, 3, 4)
        (video.orientation, video.rotation, video.sampleAspectRatio) = (6, 90, "1:1")
        (video.duration, video.fps, video.nominalFPS, video.frames) = (1.5, 30, 29.97, 45)
        (video.codec, video.profile, video.bitDepth, video.pixelFormat) = ("hevc", "Main 10", 10, "yuv420p10le")
        (video.interlaced, video.keyframeInterval, video.bitRate, video.hdr, video.dolbyVision) = (false, 30, 1000, "hlg", 8)
        (video.colourPrimaries, video.colourTransfer, video.colourMatrix, video.colourRange) = ("bt2020", "arib-std-b67", "bt2020nc", "tv")
        video.audio = [.init(codec: "aac", channels: 2, sampleRate: 48000, language: "eng")]
        video.subtitles = [.init(codec: "mov_text", language: "eng")]
        (video.coverArt, video.streams, video.alpha, video.icc, video.decodes) = (false, 2, false, "Display P3", true)
        video.capture = CaptureMetadata(created: "2024-05-01T12:34:56+02:00", make: "Apple", model: "iPhone", software: "17.0",
                                        position: GeoPosition(latitude: 1, longitude: 2, altitude: 3),
                                        contentIdentifier: "6E1B7A4C-8A2F-4D2B-9C1E-0F3A5B7C9D1E")
        video.motionPhoto = .init(offset: 100, length: 200)
        video.stillImageTime = 1.2
        var picture = video
        picture.kind = .picture
        picture.embeddedThumbnail = .init(width: 160, height: 120)
        return ([picture, video], ProbeResult(kind: .audio, format: "mp3", mime: "audio/mpeg"))
    }

    static func type(of value: JSONValue) -> String {
        switch value {
        case .string, .text: "string"
        case .int: "integer"
        case .double, .float: "number"
        case .bool: "boolean"
        case .null: "null"
        case .array(let items): "array of " + (items.first.map(type(of:)) ?? "nothing")
        case .object(let members): "{" + members.map { "\($0.name): \(type(of: $0.value))" }.joined(separator: ", ") + "}"
        }
    }

    /// The file's text: a field a line, its type, and whether it may be null.
    static func schema() -> String {
        let (full, bare) = examples
        let nullable = Set(bare.fields(includesGPS: true).filter { $0.value == .null }.map(\.name))
        let lines = full[0].fields(includesGPS: true).map { field in
            // A field null for the picture (a video's own) takes its type from the video.
            let value = full.lazy.compactMap { $0.fields(includesGPS: true).first { $0.name == field.name }?.value }.first { $0 != .null } ?? .null
            return "  {\"name\": \"\(field.name)\", \"type\": \"\(type(of: value))\", \"nullable\": \(nullable.contains(field.name))}"
        }
        return "{\"fields\": [\n" + lines.joined(separator: ",\n") + "\n]}\n"
    }

    @Test func theSchemaFileIsTheLinesOwn() throws {
        let made = Self.schema()
        if ProcessInfo.processInfo.environment["MEDIATOOL_WRITE_PROBE_SCHEMA"] == "1" {
            try made.write(toFile: Self.schemaPath, atomically: true, encoding: .utf8)
        }
        let kept = try String(contentsOfFile: Self.schemaPath, encoding: .utf8)
        #expect(kept == made, "docs/probe-schema.json is not the line's: rerun with MEDIATOOL_WRITE_PROBE_SCHEMA=1 and review\n\(made)")
    }

    /// Every field of the line has its row in docs/probe.md's table, and no row names a field the
    /// line does not have.
    @Test func theGuideDocumentsEveryFieldAndNoOther() throws {
        let guide = try String(contentsOfFile: Self.repository.appendingPathComponent("docs/probe.md").path, encoding: .utf8)
        // The rows under "| field | what it is | null when |", to the table's end.
        let lines = guide.split(separator: "\n", omittingEmptySubsequences: false)
        let header = try #require(lines.firstIndex { $0.hasPrefix("| field | what it is | null when |") })
        let table = lines[(header + 2)...].prefix { $0.hasPrefix("|") }
        // A row's first cell: the fields it documents, each in backticks.
        let documented = Set(table.flatMap { row -> [String] in
            let cell = row.dropFirst(2).prefix { $0 != "|" }
            return cell.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
        })
        let fields = Set(Self.examples.full[0].fields(includesGPS: true).map(\.name))
        let batchOwn: Set<String> = ["input", "status", "error"]
        #expect(fields.subtracting(documented).isEmpty, "undocumented: \(fields.subtracting(documented).sorted())")
        #expect(documented.subtracting(fields).subtracting(batchOwn).isEmpty, "documented, not in the line: \(documented.subtracting(fields).subtracting(batchOwn).sorted())")
    }
}
