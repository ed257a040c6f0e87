/// Every size of a thumbnail from one decode. The sizes that nothing larger can serve are reduced
/// from the decoded rows as they come (one resampler each, fed the same bands); each other size is
/// reduced from the smallest of those at least twice its size, which a Lanczos-3 reduction of it
/// matches to within rounding. Sizes are in display orientation; the reductions run on stored
/// pixels, and only the small results are turned upright.
public struct ThumbnailLadder: Sendable {
    public struct Rung: Sendable {
        public let size: ThumbnailSize
        /// The picture scaled, upright, before a fill's crop.
        public let scaledWidth: Int
        public let scaledHeight: Int
        /// What is written: the scaled picture, or with `fill` the box cut from it.
        public let outputWidth: Int
        public let outputHeight: Int
        /// The rung this one is reduced from; nil: from the decoded rows.
        let parent: Int?
    }

    public let rungs: [Rung]
    public let gravity: CropGravity?

    /// `gravity` nil: fit inside each size; else fill each size's box, cut where the gravity says.
    public init(sizes: [ThumbnailSize], displayWidth: Int, displayHeight: Int, fill gravity: CropGravity?) {
        self.gravity = gravity
        let scaled = sizes.map { $0.scaled(displayWidth: displayWidth, displayHeight: displayHeight, fill: gravity != nil) }
        let order = scaled.indices.sorted { scaled[$0].width * scaled[$0].height > scaled[$1].width * scaled[$1].height }
        var parents = [Int?](repeating: nil, count: sizes.count)
        for (position, index) in order.enumerated() {
            let candidates = order[..<position].filter {
                parents[$0] == nil && scaled[$0].width >= 2 * scaled[index].width && scaled[$0].height >= 2 * scaled[index].height
            }
            parents[index] = candidates.last
        }
        rungs = sizes.indices.map { index in
            let (width, height) = scaled[index]
            let output = gravity == nil ? (width, height) : sizes[index].filled(scaledWidth: width, scaledHeight: height)
            return Rung(size: sizes[index], scaledWidth: width, scaledHeight: height, outputWidth: output.0, outputHeight: output.1,
                        parent: parents[index])
        }
    }

    /// The least the decode must give, upright, for every size made from it.
    public var decodeAtLeast: (width: Int, height: Int) {
        rungs.filter { $0.parent == nil }.reduce((1, 1)) { (max($0.0, $1.scaledWidth), max($0.1, $1.scaledHeight)) }
    }

    /// Bytes the ladder holds: every rung's resampler or reduction and its picture, twice (scaled and upright).
    public func workingBytes(decodedWidth: Int, decodedHeight: Int, channels: Int, bytesPerSample: Int) -> Int {
        rungs.reduce(0) { total, rung in
            let resampling = Resampler.workingBytes(sourceWidth: decodedWidth, sourceHeight: decodedHeight,
                                                    targetWidth: rung.scaledWidth, targetHeight: rung.scaledHeight, channels: channels)
            return total + resampling + 2 * rung.scaledWidth * rung.scaledHeight * channels * bytesPerSample
        }
    }

    /// Every rung's picture, in the order of the sizes: `decode` gives the stored picture, at
    /// `decodedWidth` x `decodedHeight`, in bands of whole rows to the function it is passed.
    public func make(decodedWidth: Int, decodedHeight: Int, orientation: Orientation,
                     decode: (_ band: (PixelBuffer) -> Void) throws -> Void) throws -> [PixelBuffer] {
        let direct = rungs.indices.filter { rungs[$0].parent == nil }
        // Made at the first band, which says the channels and depth the format decoded to.
        var resamplers: [Int: Resampler]? = nil
        var whole: [UInt8] = []
        var keepsWhole = false
        var failure: ResampleError? = nil
        var layout = (channels: 0, bytesPerSample: 0)
        try decode { band in
            precondition(band.width == decodedWidth)
            if resamplers == nil {
                layout = (band.channels, band.bytesPerSample)
                resamplers = [:]
                for index in direct {
                    let rung = rungs[index]
                    let (width, height) = orientation.swapsAxes ? (rung.scaledHeight, rung.scaledWidth) : (rung.scaledWidth, rung.scaledHeight)
                    if width == decodedWidth && height == decodedHeight {
                        keepsWhole = true
                        continue
                    }
                    do {
                        resamplers![index] = try Resampler(sourceWidth: decodedWidth, sourceHeight: decodedHeight, targetWidth: width,
                                                           targetHeight: height, channels: band.channels, bytesPerSample: band.bytesPerSample)
                    } catch let error as ResampleError {
                        failure = error
                    } catch {}
                }
            }
            precondition(band.channels == layout.channels && band.bytesPerSample == layout.bytesPerSample)
            guard failure == nil else { return }
            for resampler in resamplers!.values { resampler.push(band) }
            if keepsWhole { whole += band.bytes }
        }
        if let failure { throw failure }
        var scaled = [PixelBuffer?](repeating: nil, count: rungs.count)
        let decoded = keepsWhole ? PixelBuffer(width: decodedWidth, height: decodedHeight, channels: layout.channels,
                                               bytesPerSample: layout.bytesPerSample, bytes: whole) : nil
        for index in direct {
            let stored = resamplers?[index]?.finish() ?? decoded!
            scaled[index] = stored.oriented(orientation)
        }
        // Larger first, so that each parent is made before the rungs reduced from it.
        for index in rungs.indices.sorted(by: { rungs[$0].scaledWidth * rungs[$0].scaledHeight > rungs[$1].scaledWidth * rungs[$1].scaledHeight })
        where scaled[index] == nil {
            let rung = rungs[index]
            scaled[index] = try scaled[rung.parent!]!.resized(width: rung.scaledWidth, height: rung.scaledHeight)
        }
        return rungs.indices.map { index in
            let rung = rungs[index], picture = scaled[index]!
            guard let gravity, rung.outputWidth != picture.width || rung.outputHeight != picture.height else { return picture }
            return picture.cropped(to: gravity.window(in: picture, width: rung.outputWidth, height: rung.outputHeight))
        }
    }
}
