import Imaging
import Testing

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
