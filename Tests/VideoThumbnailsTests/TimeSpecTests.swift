import Imaging
import Testing
import VideoThumbnails

@Suite struct TimeSpecTests {
    @Test(arguments: [
        ("35", TimeSpec.seconds(35)), ("35.2", .seconds(35.2)), ("1:02.5", .seconds(62.5)),
        ("00:01:02.500", .seconds(62.5)), ("1:00:00", .seconds(3600)), ("10%", .fraction(0.1)),
        ("0", .seconds(0)), ("100%", .fraction(1)), ("0.5%", .fraction(0.005)),
    ])
    func accepted(text: String, expected: TimeSpec) {
        #expect(TimeSpec(parsing: text) == expected)
    }

    @Test(arguments: ["", "-1", "1:60", "1:2:3:4", "abc", "1e3", "101%", "%", ".", "1::2", "+5", "1:-5", "nan", " 1",
                      // Found by fuzzing: 365 digits read as infinity.
                      String(repeating: "9", count: 365), "1000000001", "277778:0:0"])
    func refused(text: String) {
        #expect(TimeSpec(parsing: text) == nil)
    }
}

@Suite struct DisplayGeometryTests {
    @Test func anamorphicPixelsWidenThePicture() {
        let geometry = DisplayGeometry(codedWidth: 720, codedHeight: 576, pixelAspect: (64, 45), orientation: .identity,
                                       maxWidth: nil, maxHeight: nil)
        #expect((geometry.outputWidth, geometry.outputHeight) == (1024, 576))
    }

    @Test func fittingCountsInUprightCoordinates() {
        // Stored 1920x1080 turned a quarter: shown 1080x1920; fit in 540 wide gives 540x960.
        let geometry = DisplayGeometry(codedWidth: 1920, codedHeight: 1080, pixelAspect: (1, 1),
                                       orientation: .rotate90Clockwise, maxWidth: 540, maxHeight: nil)
        #expect((geometry.scaledWidth, geometry.scaledHeight) == (960, 540))
        #expect((geometry.outputWidth, geometry.outputHeight) == (540, 960))
    }

    @Test func bothBoundsKeepTheAspect() {
        let geometry = DisplayGeometry(codedWidth: 1920, codedHeight: 1080, pixelAspect: (1, 1), orientation: .identity,
                                       maxWidth: 400, maxHeight: 400)
        #expect((geometry.outputWidth, geometry.outputHeight) == (400, 225))
    }
}
