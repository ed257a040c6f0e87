import CFFmpeg

extension VideoSource {
    /// Every frame of the stream from its start, in the order shown, each with its time from the
    /// first frame's (a variable frame rate's own times), to `body`, until it returns false. A
    /// frame timed at or before the one before it (a broken or repeated timestamp) is passed over:
    /// a video's times only go forward. Damaged frames are passed over as every pass does, within
    /// `DecodeErrors.limit`. `passedOver` is told of each frame passed over for its time.
    ///
    /// `alongside`: jobs that take the frames shown at times of their own from the same pass (an
    /// ingest's storyboard, preview and poster from its web video's), each handed the frame shown
    /// at each of its times as exact mode finds it (times past the last frame its last frame),
    /// before `body` has the frame after it. One frame more is held for them.
    public func everyFrame(alongside: [FramesAlongside] = [], passedOver: () -> Void = {}, _ body: (LocatedFrame) throws -> Bool) throws {
        if startNeedsDecoding { try learnStart() }
        // Every time with its job and index, in the order of the times (a job's own order kept).
        let wanted = try alongside.enumerated().flatMap { job, alongside in
            try alongside.times(self).enumerated().map { (target: startTimestamp + ticks(atOrBefore: max(0, $1)), job: job, index: $0) }
        }.sorted { ($0.target, $0.job, $0.index) < ($1.target, $1.job, $1.index) }
        try startOver()
        var next = 0
        var held = Frame()
        var heldTimestamp: Int64?
        var lastHanded = [Int64?](repeating: nil, count: alongside.count)
        func hand(_ frame: Frame, at timestamp: Int64, isPastEnd: Bool) throws {
            let entry = wanted[next]
            next += 1
            let located = LocatedFrame(frame: frame, seconds: seconds(ticks: timestamp - startTimestamp), isPastEnd: isPastEnd)
            let repeats = lastHanded[entry.job] == timestamp
            lastHanded[entry.job] = timestamp
            try alongside[entry.job].take(FrameForTime(index: entry.index, located: located, repeatsPrevious: repeats), self)
        }
        var previousTimestamp: Int64?
        var shownTimestamp: Int64?
        var shownAny = false
        try decodeLoop(
            decidePacket: { _ in .send(thenDrains: false) },
            received: { incoming, failedSoFar in
                let timestamp = incoming.timestamp ?? previousTimestamp.map { $0 + (frameDuration ?? 1) } ?? startTimestamp
                previousTimestamp = timestamp
                if let shownTimestamp, timestamp <= shownTimestamp {
                    passedOver()
                    return nil
                }
                shownTimestamp = timestamp
                shownAny = true
                // Every time before this frame shows the one held (the first frame, before it).
                while next < wanted.count, wanted[next].target < timestamp {
                    try hand(heldTimestamp == nil ? incoming : held, at: heldTimestamp ?? timestamp, isPastEnd: false)
                }
                var located = LocatedFrame(frame: incoming, seconds: seconds(ticks: timestamp - startTimestamp), isPastEnd: false)
                located.hasErrors = failedSoFar > 0
                let goesOn = try body(located)
                if next < wanted.count {
                    swap(&held, &incoming)
                    heldTimestamp = timestamp
                }
                return goesOn ? nil : ()
            },
            finished: { _, errors in
                if !shownAny { throw VideoError.noDecodableFrame(cause: errors.last) }
            })
        // The times left show the last frame; those past its end say so.
        if let heldTimestamp {
            while next < wanted.count {
                try hand(held, at: heldTimestamp, isPastEnd: wanted[next].target >= heldTimestamp + (frameDuration ?? 1))
            }
        }
    }

    /// One frame's duration in seconds, where the stream states its rate.
    public var frameSeconds: Double? {
        frameDuration.map { seconds(ticks: $0) }
    }
}

extension VideoSource {
    /// When the file says it was made (its `creation_time`, as FFmpeg writes it back), nil where
    /// it does not.
    public var creationTimeTag: String? {
        (av_dict_get(format.pointer.pointee.metadata, "creation_time", nil, 0) ?? av_dict_get(stream.pointee.metadata, "creation_time", nil, 0))
            .map { String(cString: $0.pointee.value) }
    }

    /// A Live Photo's pairing (`com.apple.quicktime.content.identifier`, an `mdta` key), nil where
    /// the file has none: only such a video says a still-image time.
    public var livePhotoIdentifier: String? {
        av_dict_get(format.pointer.pointee.metadata, "com.apple.quicktime.content.identifier", nil, 0).map { String(cString: $0.pointee.value) }
    }

    /// Where the first frame shows, in seconds of the file's clock (a sound track's start is on the same clock).
    public var startSeconds: Double { Double(startTimestamp) * Double(timeBase.num) / Double(max(1, timeBase.den)) }
}
