import Imaging
import Testing

@Suite struct CropGeometryTests {
    /// Cropping the turned picture at a displayed rect equals turning the crop of the stored rect,
    /// for every orientation and many rects, touching edges included.
    @Test(arguments: Orientation.allCases)
    func storedRectsShowTheDisplayedPixels(orientation: Orientation) {
        let stored = OrientationTests.labelledPicture(width: 7, height: 5, channels: 3, bytesPerSample: 1)
        let shown = stored.oriented(orientation)
        for x in 0..<shown.width {
            for y in 0..<shown.height {
                for width in 1...(shown.width - x) {
                    for height in 1...(shown.height - y) {
                        let rect = PixelRect(x: x, y: y, width: width, height: height)
                        let storedRect = orientation.storedRect(forDisplayed: rect, storedWidth: 7, storedHeight: 5)
                        #expect(storedRect.fits(width: 7, height: 5))
                        #expect(stored.cropped(to: storedRect).oriented(orientation) == shown.cropped(to: rect), "\(rect)")
                    }
                }
            }
        }
    }

    @Test func fractionsSnapOutward() {
        #expect(FractionalRect(x: 10.5, y: 3.2, width: 5, height: 0.5).snappedOutward() == PixelRect(x: 10, y: 3, width: 6, height: 1))
        #expect(FractionalRect(x: 10, y: 3, width: 5, height: 2).snappedOutward() == PixelRect(x: 10, y: 3, width: 5, height: 2))
        // Rounding x and width apart would give 10,.. width 5 and lose the last column.
        #expect(FractionalRect(x: 10.4, y: 0, width: 5.4, height: 1).snappedOutward() == PixelRect(x: 10, y: 0, width: 6, height: 1))
        #expect(FractionalRect(x: 0.1 + 0.2, y: 0, width: 0.7, height: 1).snappedOutward() == PixelRect(x: 0, y: 0, width: 1, height: 1))
        // Found by fuzzing: a rect thinner than the rounding tolerance still covers a pixel.
        #expect(FractionalRect(x: 0, y: 0, width: 1e-9, height: 1).snappedOutward() == PixelRect(x: 0, y: 0, width: 1, height: 1))
        #expect(FractionalRect(x: 7.5, y: 3, width: 1e-12, height: 1e-12).snappedOutward() == PixelRect(x: 7, y: 3, width: 1, height: 1))
        // Edges beyond any picture are held within range, not trapped on.
        #expect(FractionalRect(x: -.infinity, y: 0, width: .infinity, height: 1e300).snappedOutward().width > 0)
    }

    /// The example of UIKit's documentation of the task: a 400x1000 view showing 800x1200.
    @Test func stretchScalesEachAxis() {
        let mapping = ViewMapping(viewWidth: 400, viewHeight: 1000, mode: .stretch)
        let rect = mapping.pictureRect(forView: FractionalRect(x: 100, y: 100, width: 50, height: 50), pictureWidth: 800, pictureHeight: 1200)
        #expect(rect.snappedOutward() == PixelRect(x: 200, y: 120, width: 100, height: 60))
    }

    @Test func fitCentresWithBars() {
        // 800x1200 in 400x1000: scale 0.5, shown 400x600, 200 above and below.
        let mapping = ViewMapping(viewWidth: 400, viewHeight: 1000, mode: .fit)
        let rect = mapping.pictureRect(forView: FractionalRect(x: 0, y: 200, width: 400, height: 600), pictureWidth: 800, pictureHeight: 1200)
        #expect(rect.snappedOutward() == PixelRect(x: 0, y: 0, width: 800, height: 1200))
    }

    @Test func fillCentresAndOverflows() {
        // 800x1200 in 400x1000: scale 1000/1200, shown 666.67x1000, 133.33 cut on each side.
        let mapping = ViewMapping(viewWidth: 400, viewHeight: 1000, mode: .fill)
        let rect = mapping.pictureRect(forView: FractionalRect(x: 0, y: 0, width: 400, height: 1000), pictureWidth: 800, pictureHeight: 1200)
        #expect(rect.snappedOutward() == PixelRect(x: 160, y: 0, width: 480, height: 1200))
    }

    @Test func clampingKeepsTheIntersection() {
        #expect(PixelRect(x: -5, y: 10, width: 20, height: 100).clamped(width: 50, height: 40) == PixelRect(x: 0, y: 10, width: 15, height: 30))
        #expect(PixelRect(x: 60, y: 0, width: 5, height: 5).clamped(width: 50, height: 40) == nil)
    }
}
