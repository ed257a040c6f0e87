import Testing
@testable import Storyboards

/// `StoryboardNames.isPicture`: what a sandboxed worker may ask to write beside a WebVTT file, and
/// nothing else (a worker gone wrong asks for anything): the next picture's name, as the tiling
/// names it.
@Suite struct StoryboardPictureNameTests {
    static func allowed(_ path: String, number: Int, after first: String? = nil, tiling: Tiling = .sheets(columns: 2, rows: 2),
                        most: Int = 100) -> Bool {
        StoryboardNames.isPicture(path, number: number, after: first, of: "out/clip.vtt", fileExtension: "jpg", tiling: tiling, most: most)
    }

    @Test func sheetsInTheirOrder() {
        #expect(Self.allowed("out/clip.sheet-1.jpg", number: 1))
        #expect(Self.allowed("out/clip.sheet-12.jpg", number: 12))
        #expect(!Self.allowed("out/clip.sheet-2.jpg", number: 1))
        #expect(!Self.allowed("out/clip.001.jpg", number: 1))
    }

    @Test func framesPaddedAsTheFirstAndNoWiderThanTheCount() {
        #expect(Self.allowed("out/clip.001.jpg", number: 1, tiling: .none))
        #expect(Self.allowed("out/clip.002.jpg", number: 2, after: "out/clip.001.jpg", tiling: .none))
        #expect(!Self.allowed("out/clip.2.jpg", number: 2, after: "out/clip.001.jpg", tiling: .none))
        #expect(!Self.allowed("out/clip.2024.jpg", number: 1, tiling: .none))
        #expect(!Self.allowed("out/clip.0001.jpg", number: 1, tiling: .none, most: 4) && Self.allowed("out/clip.1.jpg", number: 1, tiling: .none, most: 4))
    }

    @Test func nothingElse() {
        for path in ["out/clip.vtt", "out/clip.sheet-1.png", "out/other.sheet-1.jpg", "clip.sheet-1.jpg", "out/sub/clip.sheet-1.jpg",
                     "out/clip.sheet-.jpg", "out/clip..jpg", "out/clip.sheet-1/../x.jpg", "/etc/clip.sheet-1.jpg", "out/clip.sheet-01.jpg",
                     "out/clip.sheet-1.jpg\n", "out/../out/clip.sheet-1.jpg"] {
            #expect(!Self.allowed(path, number: 1), "\(path)")
        }
    }
}
