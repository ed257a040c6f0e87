import Testing
@testable import Storyboards

/// `StoryboardNames.isPicture`: what a sandboxed worker may ask to write beside a WebVTT file, and
/// nothing else (a worker gone wrong asks for anything).
@Suite struct StoryboardPictureNameTests {
    @Test func thePicturesOfTheStoryboardOnly() {
        let vtt = "out/clip.vtt"
        for path in ["out/clip.sheet-1.jpg", "out/clip.sheet-12.jpg", "out/clip.001.jpg", "out/clip.7.jpg"] {
            #expect(StoryboardNames.isPicture(path, of: vtt, fileExtension: "jpg"), "\(path)")
        }
        for path in ["out/clip.vtt", "out/clip.sheet-1.png", "out/other.sheet-1.jpg", "clip.sheet-1.jpg", "out/sub/clip.001.jpg",
                     "out/clip.sheet-.jpg", "out/clip..jpg", "out/clip.sheet-1/../x.jpg", "out/clip.12345678901.jpg",
                     "out/clip.٣.jpg", "/etc/clip.001.jpg", "out/clip.-1.jpg"] {
            #expect(!StoryboardNames.isPicture(path, of: vtt, fileExtension: "jpg"), "\(path)")
        }
        #expect(StoryboardNames.isPicture("clip.sheet-1.webp", of: "clip.vtt", fileExtension: "webp"))
    }
}
