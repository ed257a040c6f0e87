import Foundation
import Glibc
import FileIO
import Testing
import TestSupport

/// A file name that is not UTF-8 is linked (WebVTT, the page) by its own bytes, percent-encoded.
@Suite struct NamesAsBytesInLinksTests {

    /// `caf\xe9.mp4` (Latin-1) became `caf%F4%8F%BF%A9...` in the WebVTT and the page: the bytes of
    /// the scalar standing for 0xE9, not the name's own byte.
    @Test func aNameThatIsNotUTF8IsLinkedByItsOwnBytes() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = Array(folder.path.utf8) + Array("/caf".utf8) + [0xE9] + Array(".mp4".utf8)
        let data = try Fixture.data("video/counter.mp4")
        let fd = (path + [0]).withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { Glibc.open($0.baseAddress!, O_WRONLY | O_CREAT, 0o644) } }
        #expect(fd >= 0)
        _ = data.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, data.count) }
        close(fd)
        let run = try ToolRun.run(["storyboard", "--json", "--count", "2", "--html", "page.html", "."], in: folder)
        #expect(run.status == 0, "\(run.standardError)")
        // The line names the files as the batch names paths: the byte as Python's surrogateescape reads it.
        #expect(run.output.contains(#""vtt":"./caf\uDCE9.vtt""#) && run.output.contains(#""file":"./caf\uDCE9.sheet-1.jpg""#), "\(run.output)")
        // Foundation cannot open a name that is not UTF-8: read it by its bytes.
        let vtt = Array(folder.path.utf8) + Array("/caf".utf8) + [0xE9] + Array(".vtt".utf8) + [0]
        let file = vtt.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { fopen($0.baseAddress!, "r") } }
        let opened = try #require(file)
        var bytes: [UInt8] = []
        while case let byte = fgetc(opened), byte != EOF { bytes.append(UInt8(byte)) }
        fclose(opened)
        let track = String(decoding: bytes, as: UTF8.self)
        #expect(track.contains("caf%E9.sheet-1.jpg#xywh="), "\(track)")
        let page = try String(contentsOf: folder.appendingPathComponent("page.html"), encoding: .utf8)
        #expect(page.contains("\"caf%E9.mp4\""), "the page links the video by its name's bytes")
    }
}
