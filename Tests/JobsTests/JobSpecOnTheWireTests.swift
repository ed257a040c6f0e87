import Foundation
import FFmpeg
import FileIO
import ImageCropping
import Imaging
import JSON
import Jobs
import MediaProbe
import Previews
import Sandbox
import Storyboards
import Testing
import VideoThumbnails

/// A job travels to a worker as a typed spec: every kind, with options other than their defaults,
/// comes back the same through the wire's encoding; and the worker's messages as another program
/// writes them (scripts/fixtures/fuzz_seeds.py, from the layout alone) are read as that layout says.
@Suite struct JobSpecOnTheWireTests {
    static var specs: [JobSpec] {
        var thumbnail = ThumbnailOptions()
        thumbnail.time = .at(.seconds(12.5))
        thumbnail.sizes = [ThumbnailSize(width: 256, height: nil), ThumbnailSize(width: 64, height: 64, enlarges: true)]
        thumbnail.fill = .attention
        thumbnail.hdr = .keep
        thumbnail.limits = DecodeLimits(maxPixels: 1000, maxMemory: 1 << 20, budget: MemoryBudget(total: 1 << 20))
        thumbnail.output.overwrite = true
        var crop = CropOptions(rect: .inView(FractionalRect(x: 0.5, y: 1, width: 100, height: 50),
                                             ViewMapping(viewWidth: 400, viewHeight: 1000, mode: .fill)))
        crop.strip = MetadataStrip.all
        crop.losslessJPEG = LosslessAlignment.expand
        var probe = ProbeOptions()
        probe.deep = true
        probe.includesGPS = false
        var storyboard = StoryboardOptions()
        storyboard.selection = .every(2.5)
        storyboard.tiling = .none
        storyboard.from = .fraction(0.25)
        var preview = PreviewOptions()
        preview.format = .mp4
        preview.maxBytes = 500_000
        preview.to = .seconds(30)
        return [.thumbnail(thumbnail), .crop(crop), .probe(probe), .storyboard(storyboard, html: "page.html"), .preview(preview)]
    }

    @Test(arguments: 0..<5)
    func aSpecComesBackTheSame(index: Int) throws {
        let spec = Self.specs[index]
        let tree = try JSONValueEncoder.encode(spec)
        let message = WireMessage.job(input: "in.mp4", head: [0x89, 0x50, 0x4E, 0x47], outputs: [], threads: 2, spec: tree)
        guard case .job(_, let head, _, let threads, let sent)? = WireMessage(bytes: message.bytes), head == [0x89, 0x50, 0x4E, 0x47] else {
            Issue.record("the job message did not read back")
            return
        }
        #expect(threads == 2 && sent == tree)
        let received = try JSONValueDecoder.decode(JobSpec.self, from: sent)
        #expect(try JSONValueEncoder.encode(received) == tree)
        // The budget is the receiver's own: it never travels.
        if case .thumbnail(let options) = received { #expect(options.limits.budget == nil && options.limits.maxPixels == 1000) }
    }

    @Test func theSeedsAreMessagesOfTheirLayout() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/fuzz/wire")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(names.count == 21)
        for name in names {
            let bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
            let message = try #require(WireMessage(bytes: bytes), "\(name)")
            // Every message but the old protocol's hello is written back as it came.
            if name != "ready-protocol-1" { #expect(message.bytes == bytes, "\(name)") }
            switch (name, message) {
            case ("setup", .setup(let maxMemory, let timeout, let namesFlags)): #expect(maxMemory == 1 << 30 && timeout == 120 && namesFlags)
            case ("reserve-memory", .reserveMemory(let bytes)): #expect(bytes == 132_710_400)
            case ("ready", .ready(let version, let flags, let pid)): #expect(version == 4 && flags == 7 && pid == 4242)
            case ("progress", .progress(let progress)): #expect(progress == JobProgress(frames: 25, milliseconds: 1000, totalMilliseconds: nil))
            case ("ready-protocol-1", .ready(let version, let flags, let pid)): #expect(version == 1 && flags == 7 && pid == 4242)
            case ("start-worker", .startWorker(let decoders)): #expect(decoders == .media)
            case ("worker-started", .workerStarted(let pid)): #expect(pid == 4242)
            case ("unconfined", .unconfined(let reason)): #expect(reason.hasPrefix("seccomp"))
            case ("output-opened", .outputOpened): break
            case ("output-refused", .outputRefused(let message)): #expect(message.contains("outside"))
            case ("memory-reserved", .memoryReserved(let token)): #expect(token == 5)
            case ("memory-refused", .memoryRefused): break
            case ("unconfined", _), ("output-opened", _), ("output-refused", _), ("memory-reserved", _), ("memory-refused", _):
                Issue.record("\(name) is read as \(message)")
            case ("job-pixels-header", .job(_, _, let outputs, _, let spec)):
                // A library's call as the layout alone writes it: decoded into the job it names.
                #expect(outputs.isEmpty)
                guard case .pixels(.pictureHeader(let maxPixels, let maxMemory)) = try JSONValueDecoder.decode(JobSpec.self, from: spec) else {
                    Issue.record("job-pixels-header is not a picture header's job")
                    break
                }
                #expect(maxPixels == 1000 && maxMemory == 1 << 20)
            case ("job-thumbnail", .job(let input, let head, let outputs, _, _)):
                #expect(input == "in.mp4" && outputs.map(\.variant) == ["256", "512"])
                // The first bytes the parent read: an MP4's `ftyp` box.
                #expect(head.count == 24 && Array(head[4..<8]) == Array("ftyp".utf8))
            default: break
            }
        }
        // A message cut short, or with a byte past its end, is no message.
        let setup = [UInt8](try Data(contentsOf: folder.appendingPathComponent("setup")))
        #expect(WireMessage(bytes: Array(setup.dropLast())) == nil)
        #expect(WireMessage(bytes: setup + [0]) == nil)
    }

    /// A hello of a protocol to come is read as far as its version, whatever follows it: the
    /// parent can say which version the worker is of.
    @Test func aHelloOfAnotherProtocolIsReadAsFarAsItsVersion() {
        var bytes: [UInt8] = [17]
        withUnsafeBytes(of: Int64(5).littleEndian) { bytes += $0 }
        bytes += Array("anything at all".utf8)
        #expect(WireMessage(bytes: bytes) == .ready(protocol: 5, confinement: 0, pid: 0))
        #expect(WireMessage.protocolVersion == 4)
    }
}
