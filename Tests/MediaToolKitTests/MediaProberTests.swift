import Foundation
import MediaToolKit
import Testing
import TestSupport

@Suite struct MediaProberTests {
    /// The command line's line for a file, decoded: the schema the README documents.
    static func commandLine(_ path: String, _ options: [String] = []) throws -> ProbeReport {
        let run = try KitFixtures.tool(["probe", "--json", path] + options)
        #expect(run.status == 0)
        return try JSONDecoder().decode(ProbeReport.self, from: run.standardOutput)
    }

    @Test(arguments: ["probe/phone-hlg-portrait.mov", "probe/camera-south-west.jpg", "video/counter.mkv", "video/cover-art.mp3",
                      "pictures/orientation6.jpg", "heif/orientation6.heic", "video/two-streams.mkv", "video/cover-art.m4a",
                      "video/anamorphic.mp4", "hdr/photo-pq.avif", "tiff/orientation6.tif", "webp/animated.webp", "video/counter.ts",
                      "pictures/icc.png", "hdr/dolby-vision-8.mp4", "video/interlaced.mp4"])
    func theLibrarySReportIsTheCommandLineSLine(fixture: String) async throws {
        let path = RepositoryFixtures.path(fixture)
        var report = try await MediaProber().probe(.path(path))
        report.warnings = []
        #expect(report == (try Self.commandLine(path)))
    }

    @Test func aPhoneVideoIsDescribedAsShown() async throws {
        // Values `scripts/fixtures/probe.sh` checks against ffprobe and exiftool when it makes the file.
        let report = try await MediaProber().probe(KitFixtures.source("probe/phone-hlg-portrait.mov"))
        #expect(report.kind == .video && report.hdr == "hlg")
        #expect((report.width, report.height, report.codedWidth, report.codedHeight) == (64, 96, 96, 64))
        #expect(report.rotation == 90)
        #expect(report.gps != nil)
        var withoutPlace = MediaProber()
        withoutPlace.includesGPS = false
        let withheld = try await withoutPlace.probe(KitFixtures.source("probe/phone-hlg-portrait.mov"))
        #expect(withheld.gps == nil)
        #expect(try Self.commandLine(RepositoryFixtures.path("probe/phone-hlg-portrait.mov"), ["--location", "remove"]) == withheld)
    }

    /// What was noticed on the way reaches the caller from a worker as from this process (a
    /// worker's warnings were dropped when its line was decoded).
    @Test func warningsReachTheCallerWhereverTheProbeRan() async throws {
        var inProcess = MediaConfiguration()
        inProcess.sandbox = .inProcess
        for configuration in [MediaConfiguration(), inProcess] {
            let report = try await MediaProber(configuration: configuration).probe(KitFixtures.source("pictures/exif-malformed.jpg"))
            #expect(report.warnings == ["malformed EXIF: expected II or MM, found 58 59; orientation 1 assumed"], "\(configuration.sandbox)")
        }
    }

    @Test func encodingRoundTrips() async throws {
        let report = try await MediaProber().probe(KitFixtures.source("probe/camera-south-west.jpg"))
        let again = try JSONDecoder().decode(ProbeReport.self, from: try JSONEncoder().encode(report))
        #expect(again == report)
    }

    @Test func deepDecodes() async throws {
        var prober = MediaProber()
        prober.deep = true
        #expect(try await prober.probe(KitFixtures.source("video/counter.mp4")).decodes == true)
        #expect(try await prober.probe(KitFixtures.source("video/counter.mp4")).frames == 60)
    }

    @Test func badFilesAreErrorsWithTheCommandLineSWords() async throws {
        for fixture in ["video/not-media.mp4", "pictures/not-a-picture.png", "video/empty.mp4"] {
            let path = RepositoryFixtures.path(fixture)
            let run = try KitFixtures.tool(["probe", "--json", path, "--sandbox", "off"])
            let line = String(decoding: run.standardError, as: UTF8.self).split(separator: "\n").first.map(String.init)
            do {
                _ = try await MediaProber().probe(.path(path))
                Issue.record("\(fixture) was probed")
            } catch {
                #expect("mediatool: \(error)" == line, "\(fixture)")
            }
        }
    }
}
