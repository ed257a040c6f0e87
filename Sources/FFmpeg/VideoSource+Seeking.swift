import CFFmpeg
import Imaging
import FileIO

/// Finding the frame shown at a time: seeking, the search back where a seek lands late, and
/// decoding forward to the frame (or keyframe).
extension VideoSource {
    /// The picture shown at `seconds` after the first frame: the last frame (or keyframe) whose
    /// time is at or before it.
    public func frame(atSeconds seconds: Double, mode: SeekMode) throws -> LocatedFrame {
        if startNeedsDecoding { try learnStart() }
        let target = startTimestamp + ticks(atOrBefore: max(0, seconds))
        if mode == .keyframe {
            if let located = try search(for: target, keyframeForward) { return located }
            // Keyframe packets without their own presentation time (AVI, MPEG program streams, raw
            // streams): only decoding tells when each frame shows.
        }
        if let located = try search(for: target, { try self.decodeForward(to: $0, acceptsLateFirstFrame: $1, keyframesOnly: mode == .keyframe) }) {
            return located
        }
        throw VideoError.noDecodableFrame(cause: nil)
    }

    /// What a search from the current position found.
    private enum SearchOutcome {
        case found(LocatedFrame)
        /// The first candidate already lies after the target: the seek landed too late.
        case landedLate
        /// Packets do not tell enough: decode instead.
        case needsDecoding
    }

    /// Seeks to the target and runs `searchForward` from there, earlier and earlier while it lands
    /// late (some demuxers, MPEG-TS, land after the time asked for), and from the start when the
    /// demuxer cannot seek or the time is the first frame's. Nil when `searchForward` needs decoding.
    private func search(for target: Int64, _ searchForward: (Int64, Bool) throws -> SearchOutcome) throws -> LocatedFrame? {
        func run(_ fromStart: Bool) throws -> LocatedFrame?? {
            switch try searchForward(target, fromStart) {
            case .found(let located): return .some(located)
            case .needsDecoding: return .some(nil)
            case .landedLate: return nil
            }
        }
        // The first frame needs no seek at all, only a start.
        if target <= startTimestamp {
            try startOver()
            if let outcome = try run(true) { return outcome }
            throw VideoError.noDecodableFrame(cause: nil)
        }
        var seekTarget = target
        var backoff = ticks(atOrBefore: 1)
        for _ in 0..<6 {
            let fromStart: Bool
            if seekTarget <= startTimestamp {
                try startOver()
                fromStart = true
            } else {
                // A demuxer that cannot seek (some AVI, FLV, Matroska without cues) is read from the start.
                fromStart = try !seek(to: seekTarget)
            }
            if let outcome = try run(fromStart) { return outcome }
            if fromStart { throw VideoError.noDecodableFrame(cause: nil) }
            seekTarget = max(startTimestamp, seekTarget - backoff)
            backoff *= 2
        }
        try startOver()
        if let outcome = try run(true) { return outcome }
        throw VideoError.noDecodableFrame(cause: nil)
    }

    /// The first frame's own timestamp, decoded from the start.
    func learnStart() throws {
        startNeedsDecoding = false
        try startOver()
        let packet = Packet()
        let frame = Frame()
        var counted = 0
        while try format.read(into: packet), counted < 1000 {
            isAtStart = false
            guard packet.streamIndex == streamIndex, decoder.send(packet) >= 0 else { continue }
            counted += 1
            if case .frame = try? decoder.receive(into: frame) {
                if let timestamp = frame.timestamp { startTimestamp = timestamp }
                break
            }
        }
        decoder.flush()
    }

    /// Demuxers that seek by decoding timestamps (MPEG-TS) put the first keyframe's before its
    /// presentation time: seeking a second before the first frame lands before that keyframe.
    private var beforeStart: Int64 { startTimestamp - ticks(atOrBefore: 1) }

    /// Moves to the keyframe at or before `timestamp`. When the demuxer cannot (its result is
    /// checked: a failed seek may leave the position anywhere), the input is read again from its
    /// start and this returns false.
    func seek(to timestamp: Int64) throws -> Bool {
        decoder.flush()
        do {
            try format.seek(stream: streamIndex, to: timestamp)
            isAtStart = false
            return true
        } catch {
            try reopenAtStart()
            return false
        }
    }

    /// Goes back to the first packet: nothing to do right after opening; else a seek before the
    /// first frame, or, where the demuxer cannot seek, the input opened again.
    func startOver() throws {
        decoder.flush()
        if isAtStart { return }
        if (try? format.seek(stream: streamIndex, to: beforeStart)) != nil { return }
        try reopenAtStart()
    }

    func reopenAtStart() throws {
        format = try reopen()
        stream = format.stream(streamIndex)
        isAtStart = true
    }

    /// Reads packets from the current position to the first keyframe after the target, and
    /// decodes only the last keyframe at or before it: demuxers that seek early (MPEG-PS, AVI)
    /// hand back an earlier GOP's keyframe first. `.landedLate` when the first keyframe already lies
    /// after the target and `acceptsLateFirstKeyframe` is false; `.needsDecoding` when a keyframe
    /// packet has no presentation time or its frame is no intra frame.
    private func keyframeForward(to target: Int64, acceptsLateFirstKeyframe: Bool) throws -> SearchOutcome {
        let packet = Packet()
        let chosen = Packet()
        var chosenTime: Int64?
        var nextKeyframeTime: Int64?
        var streamEnd: Int64?
        var reachedEnd = true
        while try format.read(into: packet) {
            isAtStart = false
            guard packet.streamIndex == streamIndex else { continue }
            // The end of the stream, from the presentation times: decoding times lag behind them.
            if let time = packet.presentationTimestamp {
                streamEnd = max(streamEnd ?? time, time + (packet.duration > 0 ? packet.duration : frameDuration ?? 1))
            }
            guard packet.isKeyframe else { continue }
            guard let time = packet.presentationTimestamp else { return .needsDecoding }
            if time <= target {
                chosen.take(from: packet)
                chosenTime = time
                continue
            }
            if chosenTime == nil {
                guard acceptsLateFirstKeyframe else { return .landedLate }
                chosen.take(from: packet)
                chosenTime = time
                // The next keyframe is still to come: this one's span is unknown.
                reachedEnd = false
                break
            }
            nextKeyframeTime = time
            reachedEnd = false
            break
        }
        guard let chosenTime else {
            // Landed after the last keyframe: seek again, earlier.
            if !acceptsLateFirstKeyframe { return .landedLate }
            throw VideoError.noDecodableFrame(cause: format.readError?.message)
        }
        decoder.flush()
        decoder.skipFrame = AVDISCARD_DEFAULT
        let frame = Frame()
        let code = decoder.send(chosen)
        if code < 0 { throw VideoError.noDecodableFrame(cause: FFmpegError("cannot decode", code: code).message) }
        decoder.sendEndOfStream()
        while true {
            switch try decoder.receive(into: frame) {
            case .frame:
                // A keyframe that does not decode on its own is no sync point: decode the way there.
                if frame.hasErrors || !frame.isKeyframe { return .needsDecoding }
                lastKeyframeSpan = nextKeyframeTime.map { chosenTime..<$0 } ?? (reachedEnd ? chosenTime..<Int64.max : nil)
                let isPastEnd = reachedEnd && streamEnd.map { target >= $0 } == true
                return .found(LocatedFrame(frame: frame, seconds: seconds(ticks: chosenTime - startTimestamp), isPastEnd: isPastEnd))
            case .needsInput, .finished:
                throw VideoError.noDecodableFrame(cause: nil)
            }
        }
    }

    /// Decodes from the current position to the last frame at or before the target (the last
    /// keyframe with `keyframesOnly`, found by decoding every frame up to the next keyframe, where
    /// packets do not say when keyframes show). `.landedLate` when the first frame already lies
    /// after the target and `acceptsLateFirstFrame` is false.
    private func decodeForward(to target: Int64, acceptsLateFirstFrame: Bool, keyframesOnly: Bool) throws -> SearchOutcome {
        let candidate = Frame()
        var candidateTimestamp: Int64?
        var previousTimestamp: Int64?
        var latestTimestamp: Int64?
        // A frame with errors after a seek means the keyframe sought to was no sync point (some
        // files mark frames that are not): every frame after it may be garbage, so the search
        // starts again from an earlier keyframe, and from the start of the file at the last.
        var sawErrors = false
        var syncTimestamp: Int64?
        // The packet a seek landed on must give an intra frame; where the index calls a frame a
        // keyframe that is not one, MPEG-4 and MPEG-2 decoders fill the missing pictures with grey
        // and say nothing.
        var landingPacket: Int64?
        // After a seek, nothing before the first keyframe packet can be decoded cleanly: such packets
        // are passed over unread by the decoder. Demuxers that seek by time alone (MPEG-TS) land
        // anywhere; a clip whose last keyframe is long before the time asked for decoded every packet
        // to the end at each of the search's steps back (10 s, where decoding the file took 1.8).
        var awaitsKeyframe = !acceptsLateFirstFrame

        return try decodeLoop(
            decidePacket: { packet -> PacketDecision<SearchOutcome> in
                if awaitsKeyframe {
                    guard packet.isKeyframe else { return .skip }
                    awaitsKeyframe = false
                    // The first keyframe shows after the time asked for: the seek landed late,
                    // known without decoding anything (where packets are timed as shown).
                    if !packetTimesAreDecodingOrder, let shown = packet.presentationTimestamp, shown > target {
                        return .finish(.landedLate)
                    }
                }
                if landingPacket == nil { landingPacket = packet.decodingTimestamp ?? Int64.min }
                decoder.skipFrame = keyframesOnly ? AVDISCARD_DEFAULT : skipLevel(for: packet, target: target)
                // Every packet the target's frame refers to came before it: drain then rather than
                // decode the frames that frame threading would otherwise wait for.
                return .send(thenDrains: !keyframesOnly && isShown(packet, at: target))
            },
            received: { incoming, failedSoFar -> SearchOutcome? in
                // A frame without a timestamp follows the one before; the first, read from the
                // start, is the first frame; the first after a seek in a raw stream (which has
                // none at all) is taken for the target. In AVI, whose other frames have times,
                // one without says nothing of when it shows (the last keyframe, stored before
                // the B-frames it ends, showed as the frame asked for): search from earlier.
                if incoming.timestamp == nil && previousTimestamp == nil && !acceptsLateFirstFrame
                    && packetTimesAreDecodingOrder && !hasNoTimestamps {
                    return .landedLate
                }
                let timestamp = incoming.timestamp ?? previousTimestamp.map { $0 + (frameDuration ?? 1) }
                    ?? (acceptsLateFirstFrame ? startTimestamp : target)
                previousTimestamp = timestamp
                latestTimestamp = max(latestTimestamp ?? timestamp, timestamp)
                // Leading pictures of an open GOP show before its keyframe and refer to the GOP
                // before: their errors say nothing of the frames after the keyframe.
                if syncTimestamp == nil && incoming.isKeyframe { syncTimestamp = timestamp }
                if incoming.hasErrors, let syncTimestamp, timestamp >= syncTimestamp { sawErrors = true }
                if !acceptsLateFirstFrame, !incoming.isKeyframe, let landing = incoming.packetDecodingTimestamp,
                   landing == landingPacket {
                    return .landedLate
                }
                if keyframesOnly && !incoming.isKeyframe { return nil }
                if candidateTimestamp == nil && timestamp > target && !acceptsLateFirstFrame {
                    return .landedLate
                }
                if timestamp > target {
                    // The first frame after the target ends the search, unless none came before it.
                    var followsFailures = false
                    if candidateTimestamp == nil {
                        candidate.take(from: incoming)
                        candidateTimestamp = timestamp
                        // Frames before it that did not decode: the time asked for is among them.
                        followsFailures = failedSoFar > 0 && timestamp - target > (frameDuration ?? 0)
                    }
                    if sawErrors && !acceptsLateFirstFrame { return .landedLate }
                    var located = LocatedFrame(frame: candidate, seconds: seconds(ticks: candidateTimestamp! - startTimestamp),
                                               isPastEnd: false)
                    located.hasErrors = sawErrors
                    located.followsUndecodableFrames = followsFailures
                    return .found(located)
                }
                candidate.take(from: incoming)
                candidateTimestamp = timestamp
                return nil
            },
            finished: { drainedAtTarget, errors in
                guard let timestamp = candidateTimestamp else {
                    // Seeking landed where no keyframe follows: try again from earlier.
                    if !acceptsLateFirstFrame { return .landedLate }
                    throw VideoError.noDecodableFrame(cause: errors.last)
                }
                if sawErrors && !acceptsLateFirstFrame { return .landedLate }
                let last = latestTimestamp ?? timestamp
                let isPastEnd = !drainedAtTarget
                    && (target > last + (frameDuration ?? 0) || (frameDuration == nil && target > last))
                var located = LocatedFrame(frame: candidate, seconds: seconds(ticks: timestamp - startTimestamp),
                                           isPastEnd: isPastEnd)
                located.hasErrors = sawErrors
                return .found(located)
            })
    }

    /// When the packet's frame is on screen, in the stream's time base, if its timing is known.
    private func screenTime(of packet: Packet) -> Range<Int64>? {
        guard !packetTimesAreDecodingOrder, let pts = packet.presentationTimestamp,
              let duration = packet.duration > 0 ? packet.duration : frameDuration else { return nil }
        return pts..<(pts + duration)
    }

    /// Whether the packet's frame is the one on screen at `target`.
    private func isShown(_ packet: Packet, at target: Int64) -> Bool {
        screenTime(of: packet)?.contains(target) ?? false
    }

    /// Frames that end before the target are never shown: those nothing refers to need no decoding.
    func skipLevel(for packet: Packet, target: Int64) -> AVDiscard {
        guard let shown = screenTime(of: packet) else { return AVDISCARD_DEFAULT }
        return shown.upperBound <= target ? AVDISCARD_NONREF : AVDISCARD_DEFAULT
    }

    /// The tick at or before `seconds`: a time in the second half of a frame is still that frame's
    /// (rounding to the nearest tick gave the next frame where a tick is a frame: AVI, 3GP, Ogg).
    /// A product a hair below a whole tick (0.29 s at 1/100) is that tick. Held within ±2^62, so
    /// that no time, however far, traps on the way to an integer.
    func ticks(atOrBefore seconds: Double) -> Int64 {
        let exact = seconds * Double(timeBase.den) / Double(timeBase.num)
        let nearest = exact.rounded()
        let ticks = abs(exact - nearest) < 1e-6 * max(1, abs(exact)) ? nearest : exact.rounded(.down)
        guard ticks.isFinite else { return ticks < 0 ? -(1 << 62) : 1 << 62 }
        return Int64(max(-4.6e18, min(4.6e18, ticks)))
    }

    func seconds(ticks: Int64) -> Double {
        Double(ticks) * Double(timeBase.num) / Double(timeBase.den)
    }
}
