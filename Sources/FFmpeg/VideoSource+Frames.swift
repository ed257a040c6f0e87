import CFFmpeg

extension VideoSource {
    /// A frame found for one of many times.
    public struct FrameForTime {
        /// The index of the time in the list asked for.
        public let index: Int
        public let located: LocatedFrame
        /// The same picture as the time before: nothing was decoded for this one.
        public let repeatsPrevious: Bool
    }

    /// The pictures shown at many times (ascending), each handed to `body` in order.
    ///
    /// Keyframe mode: the keyframe at or before each time, each decoded once; times that fall
    /// before the next keyframe repeat it, and the packets between keyframes are read, never decoded.
    /// Exact mode: one forward pass that never seeks back and never decodes a frame twice; where the
    /// container has an index, it seeks forward over every stretch that holds no time asked for,
    /// and frames no time shows and no frame refers to are not decoded.
    public func frames(atSeconds times: [Double], mode: SeekMode, _ body: (FrameForTime) throws -> Void) throws {
        precondition(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 }, "times ascend")
        switch mode {
        case .keyframe: try keyframes(atSeconds: times, body)
        case .exact: try exactFrames(atSeconds: times, body)
        }
    }

    /// The pictures shown at the times of several lists (each ascending), from one pass: where two
    /// jobs want frames of one video (an ingest's storyboard and preview), each frame is decoded
    /// once for both. `body` has each frame with the list it is for and its index there, in the
    /// order of the times; `repeatsPrevious` says whether it is the picture of that list's time before.
    public func frames(atSeconds lists: [[Double]], mode: SeekMode, _ body: (_ list: Int, FrameForTime) throws -> Void) throws {
        // Every time with its list and index, in the order of the times (a list's own order kept).
        let merged = lists.enumerated().flatMap { list, times in times.enumerated().map { (time: $1, list: list, index: $0) } }
            .sorted { ($0.time, $0.list, $0.index) < ($1.time, $1.list, $1.index) }
        var shown = [Double?](repeating: nil, count: lists.count)
        try frames(atSeconds: merged.map(\.time), mode: mode) { found in
            let entry = merged[found.index]
            let repeats = shown[entry.list] == found.located.seconds
            shown[entry.list] = found.located.seconds
            try body(entry.list, FrameForTime(index: entry.index, located: found.located, repeatsPrevious: repeats))
        }
    }

    /// Whether the keyframe at `seconds` is the one the last keyframe search found (by the span it
    /// found): what `frames(atSeconds:mode: .keyframe)` reports as `repeatsPrevious` for a next time.
    public func repeatsLastKeyframe(atSeconds seconds: Double) -> Bool {
        guard let span = lastKeyframeSpan, !startNeedsDecoding else { return false }
        return span.contains(startTimestamp + ticks(atOrBefore: max(0, seconds)))
    }

    private func keyframes(atSeconds times: [Double], _ body: (FrameForTime) throws -> Void) throws {
        var previous: (located: LocatedFrame, span: Range<Int64>)?
        for (index, seconds) in times.enumerated() {
            if startNeedsDecoding { try learnStart() }
            let target = startTimestamp + ticks(atOrBefore: max(0, seconds))
            if let previous, previous.span.contains(target) {
                try body(FrameForTime(index: index, located: previous.located, repeatsPrevious: true))
                continue
            }
            lastKeyframeSpan = nil
            let located = try frame(atSeconds: seconds, mode: .keyframe)
            previous = lastKeyframeSpan.map { (located, $0) }
            try body(FrameForTime(index: index, located: located, repeatsPrevious: false))
        }
    }

    private func exactFrames(atSeconds times: [Double], _ body: (FrameForTime) throws -> Void) throws {
        guard !times.isEmpty else { return }
        if startNeedsDecoding { try learnStart() }
        try startOver()
        let targets = times.map { startTimestamp + ticks(atOrBefore: max(0, $0)) }
        var next = 0
        var held = Frame()
        var heldTimestamp: Int64?
        var previousTimestamp: Int64?
        var emittedTimestamp: Int64?
        var latestPacket = Int64.min
        // Packets timed in decoding order (AVI, raw streams) say nothing of which frame shows when,
        // nor do their frames after a seek: those files are read through.
        var seeksForward = !packetTimesAreDecodingOrder
        /// Where frames without a timestamp count from: the start, or the keyframe sought to.
        var countingFrom = startTimestamp
        /// The keyframe last jumped to, until its first frame comes.
        var jumpedTo: Int64?
        /// The keyframe to decode from instead, and the one jumped to, which shows after the time
        /// asked: an open GOP's keyframe (HEVC's CRA) is decoded before the frames shown just
        /// before it, which need the GOP before. Its frames are passed over until then.
        var retreat: (from: Int64, past: Int64)?

        func emit(_ frame: Frame, at timestamp: Int64, isPastEnd: Bool) throws {
            let located = LocatedFrame(frame: frame, seconds: self.seconds(ticks: timestamp - startTimestamp), isPastEnd: isPastEnd)
            try body(FrameForTime(index: next, located: located, repeatsPrevious: emittedTimestamp == timestamp))
            emittedTimestamp = timestamp
            next += 1
        }

        /// Hands out every time before `timestamp`: they show the frame held.
        func frameArrived(_ frame: Frame, at timestamp: Int64) throws {
            while next < targets.count && targets[next] < timestamp {
                if let heldTimestamp {
                    try emit(held, at: heldTimestamp, isPastEnd: false)
                } else {
                    // Times before the first frame show the first frame.
                    try emit(frame, at: timestamp, isPastEnd: false)
                }
            }
        }

        try decodeLoop(
            beforeRead: {
                if let (earlier, past) = retreat {
                    retreat = nil
                    if (try? format.seek(stream: streamIndex, to: earlier)) != nil {
                        decoder.flush()
                        // Read through to the keyframe jumped past, and on: no jump back to it.
                        latestPacket = past
                        previousTimestamp = nil
                        countingFrom = earlier
                        return
                    }
                    try reopenAtStart()
                    decoder.flush()
                    seeksForward = false
                    return
                }
                guard seeksForward, let keyframe = indexedKeyframe(atOrBefore: targets[next]), keyframe > latestPacket,
                      heldTimestamp.map({ keyframe > $0 }) ?? (latestPacket > Int64.min) else { return }
                // Nothing read so far reaches the keyframe before the next time: jump there.
                if (try? format.seek(stream: streamIndex, to: targets[next])) != nil {
                    decoder.flush()
                    latestPacket = keyframe
                    previousTimestamp = nil
                    countingFrom = keyframe
                    jumpedTo = keyframe
                } else {
                    // The position is unknown after a failed seek: read on from the start,
                    // passing over what was shown already.
                    try reopenAtStart()
                    decoder.flush()
                    seeksForward = false
                }
            },
            decidePacket: { packet in
                if let time = packet.decodingTimestamp ?? packet.presentationTimestamp { latestPacket = max(latestPacket, time) }
                decoder.skipFrame = skipLevel(for: packet, target: targets[next])
                return .send(thenDrains: false)
            },
            received: { incoming, _ in
                let timestamp = incoming.timestamp ?? previousTimestamp.map { $0 + (frameDuration ?? 1) } ?? countingFrom
                if retreat != nil { return nil }
                if let keyframe = jumpedTo {
                    jumpedTo = nil
                    // The keyframe shows after the next time: that time's frame is in the GOP before,
                    // decoded from its keyframe (the frame held is older still).
                    if next < targets.count, timestamp > targets[next], let earlier = indexedKeyframe(atOrBefore: keyframe - 1) {
                        retreat = (earlier, keyframe)
                        return nil
                    }
                }
                previousTimestamp = timestamp
                // After a failed seek, frames already passed come again: they are not new.
                if let heldTimestamp, timestamp <= heldTimestamp { return nil }
                try frameArrived(incoming, at: timestamp)
                swap(&held, &incoming)
                heldTimestamp = timestamp
                return next == targets.count ? () : nil
            },
            finished: { _, errors in
                guard let heldTimestamp else { throw VideoError.noDecodableFrame(cause: errors.last) }
                while next < targets.count {
                    let isPastEnd = targets[next] >= heldTimestamp + (frameDuration ?? 1)
                    try emit(held, at: heldTimestamp, isPastEnd: isPastEnd)
                }
            })
    }

    /// The timestamp of the keyframe at or before `target` in the container's index; nil without one.
    private func indexedKeyframe(atOrBefore target: Int64) -> Int64? {
        guard let entry = avformat_index_get_entry_from_timestamp(stream, target, AVSEEK_FLAG_BACKWARD) else { return nil }
        return entry.pointee.timestamp
    }
}
