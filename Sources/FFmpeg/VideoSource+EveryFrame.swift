import CFFmpeg

extension VideoSource {
    /// Every frame of the stream from its start, in the order shown, each with its time from the
    /// first frame's (a variable frame rate's own times), to `body`, until it returns false. A
    /// frame timed at or before the one before it (a broken or repeated timestamp) is passed over:
    /// a video's times only go forward. Damaged frames are passed over as every pass does, within
    /// `DecodeErrors.limit`. `passedOver` is told of each frame passed over for its time.
    public func everyFrame(passedOver: () -> Void = {}, _ body: (LocatedFrame) throws -> Bool) throws {
        if startNeedsDecoding { try learnStart() }
        try startOver()
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
                var located = LocatedFrame(frame: incoming, seconds: seconds(ticks: timestamp - startTimestamp), isPastEnd: false)
                located.hasErrors = failedSoFar > 0
                return try body(located) ? nil : ()
            },
            finished: { _, errors in
                if !shownAny { throw VideoError.noDecodableFrame(cause: errors.last) }
            })
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

    /// Where the first frame shows, in seconds of the file's clock (a sound track's start is on the same clock).
    public var startSeconds: Double { Double(startTimestamp) * Double(timeBase.num) / Double(max(1, timeBase.den)) }
}
