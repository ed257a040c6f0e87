import WorkerPool

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
        /// Where a filled rung is cut; nil: it fits inside its size.
        public let gravity: CropGravity?
        /// The rung this one is reduced from; nil: from the decoded rows.
        let parent: Int?
    }

    public let rungs: [Rung]

    /// `gravity` nil: fit inside each size; else fill each size's box, cut where the gravity says;
    /// a size's own `fill` comes first. Fitted and filled sizes share reductions: both scale the
    /// whole picture, and only a filled one is cut at the end.
    public init(sizes: [ThumbnailSize], displayWidth: Int, displayHeight: Int, fill gravity: CropGravity?) {
        let gravities = sizes.map { $0.fill ?? gravity }
        let scaled = sizes.indices.map { sizes[$0].scaled(displayWidth: displayWidth, displayHeight: displayHeight, fill: gravities[$0] != nil) }
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
            let output = gravities[index] == nil ? (width, height) : sizes[index].filled(scaledWidth: width, scaledHeight: height)
            return Rung(size: sizes[index], scaledWidth: width, scaledHeight: height, outputWidth: output.0, outputHeight: output.1,
                        gravity: gravities[index], parent: parents[index])
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
    /// `decodedWidth` x `decodedHeight`, in bands of whole rows to the function it is passed. With
    /// `threads` above 1, the reductions run on threads of their own while the decoding goes on.
    public func make(decodedWidth: Int, decodedHeight: Int, orientation: Orientation, threads: Int = 1,
                     decode: (_ band: (PixelBuffer) -> Void) throws -> Void) throws -> [PixelBuffer] {
        let direct = rungs.indices.filter { rungs[$0].parent == nil }
        // Made at the first band, which says the channels and depth the format decoded to.
        var reductions: Reductions? = nil
        var failure: ResampleError? = nil
        // The threads end however the decoding does.
        defer { reductions?.stop() }
        var rows = 0
        try decode { band in
            // A decoder that gives what it did not announce (a HEIF thumbnail coded at another size
            // than its header states) fails the picture, never the process.
            rows += band.height
            if failure == nil && (band.width != decodedWidth || rows > decodedHeight
                                  || reductions.map({ !$0.takes(band) }) == true) {
                failure = .unexpectedRows(width: decodedWidth, height: decodedHeight)
            }
            guard failure == nil else { return }
            if reductions == nil {
                do {
                    reductions = try Reductions(rungs: rungs, direct: direct, decodedWidth: decodedWidth, decodedHeight: decodedHeight,
                                                orientation: orientation, first: band, threads: threads)
                } catch let error as ResampleError {
                    failure = error
                } catch {}
            }
            reductions?.take(band)
        }
        if let failure { throw failure }
        guard let reductions else { throw ResampleError.noRows }
        reductions.stop()
        let stored = try reductions.results()
        var scaled = [PixelBuffer?](repeating: nil, count: rungs.count)
        for index in direct {
            guard let picture = stored[index] ?? reductions.decoded else { throw ResampleError.noRows }
            scaled[index] = picture.oriented(orientation)
        }
        // Larger first, so that each parent is made before the rungs reduced from it.
        for index in rungs.indices.sorted(by: { rungs[$0].scaledWidth * rungs[$0].scaledHeight > rungs[$1].scaledWidth * rungs[$1].scaledHeight })
        where scaled[index] == nil {
            let rung = rungs[index]
            scaled[index] = try scaled[rung.parent!]!.resized(width: rung.scaledWidth, height: rung.scaledHeight)
        }
        return rungs.indices.map { index in
            let rung = rungs[index], picture = scaled[index]!
            guard let gravity = rung.gravity, rung.outputWidth != picture.width || rung.outputHeight != picture.height else { return picture }
            return picture.cropped(to: gravity.window(in: picture, width: rung.outputWidth, height: rung.outputHeight))
        }
    }
}

/// The reductions of the decoded rows, one per rung made from them: on threads of their own (each
/// given every band through a `BandFanOut`), or here when there is one thread.
private final class Reductions {
    private var resamplers: [Int: Resampler] = [:]
    private var whole: [UInt8] = []
    private var keepsWhole = false
    private let layout: (width: Int, height: Int, channels: Int, bytesPerSample: Int)
    /// The resamplers each thread feeds; those of threads that could not start are fed here.
    private var inline: [Resampler] = []
    private var fanOut: BandFanOut?
    private var threads: [ThreadToJoin] = []

    init(rungs: [ThumbnailLadder.Rung], direct: [Int], decodedWidth: Int, decodedHeight: Int, orientation: Orientation,
         first band: PixelBuffer, threads threadCount: Int) throws(ResampleError) {
        layout = (decodedWidth, decodedHeight, band.channels, band.bytesPerSample)
        for index in direct {
            let rung = rungs[index]
            let (width, height) = orientation.storedSize(displayWidth: rung.scaledWidth, displayHeight: rung.scaledHeight)
            if width == decodedWidth && height == decodedHeight {
                keepsWhole = true
                whole.reserveCapacity(decodedWidth * decodedHeight * band.channels * band.bytesPerSample)
            } else {
                resamplers[index] = try Resampler(sourceWidth: decodedWidth, sourceHeight: decodedHeight, targetWidth: width,
                                                  targetHeight: height, channels: band.channels, bytesPerSample: band.bytesPerSample)
            }
        }
        let all = resamplers.keys.sorted().map { resamplers[$0]! }
        let consumers = threadCount > 1 ? min(threadCount, all.count) : 0
        guard consumers > 0 else {
            inline = all
            return
        }
        let fanOut = BandFanOut(consumers: consumers)
        self.fanOut = fanOut
        for consumer in 0..<consumers {
            let share = HandedOver(stride(from: consumer, to: all.count, by: consumers).map { all[$0] })
            let started = WorkerThreads.start(count: 1) { _ in
                while let band = fanOut.next(for: consumer) { share.value.forEach { $0.push(band) } }
            }
            if started.count == 1 {
                threads.append(ThreadToJoin(started))
            } else {
                started.join()
                fanOut.drop(consumer)
                inline += share.value
            }
        }
    }

    /// Whether a band is of the layout of the first.
    func takes(_ band: PixelBuffer) -> Bool {
        band.channels == layout.channels && band.bytesPerSample == layout.bytesPerSample
    }

    func take(_ band: PixelBuffer) {
        fanOut?.put(band)
        inline.forEach { $0.push(band) }
        if keepsWhole { whole += band.bytes }
    }

    /// No more bands: waits for the threads.
    func stop() {
        fanOut?.finish()
        while let thread = threads.popLast() { thread.join() }
    }

    /// Every reduced rung's stored picture, by rung, once every band was taken and `stop` called.
    func results() throws(ResampleError) -> [Int: PixelBuffer] {
        var stored: [Int: PixelBuffer] = [:]
        for (index, resampler) in resamplers {
            guard resampler.isComplete else { throw .noRows }
            stored[index] = resampler.finish()
        }
        return stored
    }

    /// The decoded picture itself, for a rung of its size.
    var decoded: PixelBuffer? {
        keepsWhole ? PixelBuffer(width: layout.width, height: layout.height, channels: layout.channels,
                                 bytesPerSample: layout.bytesPerSample, bytes: whole) : nil
    }
}

/// A started thread, held until it is joined.
private final class ThreadToJoin {
    private var group: WorkerThreads.Group?

    init(_ group: consuming WorkerThreads.Group) {
        self.group = consume group
    }

    func join() {
        group.take()?.join()
    }
}
