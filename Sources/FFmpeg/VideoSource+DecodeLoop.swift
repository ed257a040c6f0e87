/// What the decode loop does with a packet of the stream, as its caller decides.
enum PacketDecision<Outcome> {
    /// Send it to the decoder; then, if it was taken and `thenDrains`, tell the decoder the input
    /// has ended, so that every frame it holds comes out now.
    case send(thenDrains: Bool)
    /// Pass over it: the decoder never sees it.
    case skip
    /// Stop here with this outcome.
    case finish(Outcome)
}

extension VideoSource {
    /// The one read, send and receive loop: the stream's packets from the current position go to
    /// the decoder as `decidePacket` says, each decoded frame to `received` (which may swap in a
    /// frame of its own; told how many packets and frames failed so far), until either gives an
    /// outcome or the decoder has given its last frame,
    /// when `finished` says what was found (told whether a packet drained the decoder early, and
    /// the errors met). A corrupt packet or frame is passed over, within reason: past
    /// `DecodeErrors.limit` of them the loop throws, the last error as the cause.
    func decodeLoop<Outcome>(
        beforeRead: () throws -> Void = {},
        decidePacket: (Packet) throws -> PacketDecision<Outcome>,
        received: (inout Frame, _ failedSoFar: Int) throws -> Outcome?,
        finished: (_ drainedEarly: Bool, _ errors: DecodeErrors) throws -> Outcome
    ) throws -> Outcome {
        let packet = Packet()
        var frame = Frame()
        var errors = DecodeErrors()
        var isDraining = false
        var drainedEarly = false
        while !errors.areTooMany {
            if !isDraining {
                try beforeRead()
                if try format.read(into: packet) {
                    isAtStart = false
                    guard packet.streamIndex == streamIndex else { continue }
                    switch try decidePacket(packet) {
                    case .skip:
                        continue
                    case .finish(let outcome):
                        return outcome
                    case .send(let thenDrains):
                        if decoder.send(packet, noting: &errors), thenDrains {
                            decoder.sendEndOfStream()
                            isDraining = true
                            drainedEarly = true
                        }
                    }
                } else {
                    endOfInput(noting: &errors)
                    isDraining = true
                }
            }
            receiving: while !errors.areTooMany {
                switch decoder.receive(into: frame, noting: &errors) {
                case nil:
                    continue
                case .needsInput:
                    break receiving
                case .finished:
                    return try finished(drainedEarly, errors)
                case .frame:
                    if let outcome = try received(&frame, errors.count) { return outcome }
                }
            }
        }
        throw VideoError.noDecodableFrame(cause: errors.last)
    }

    /// The input is read to its end, or a read failed (its words become the cause if no frame
    /// comes): the decoder is told, so that it gives out the frames it still holds.
    func endOfInput(noting errors: inout DecodeErrors) {
        if let readError = format.readError { errors.last = readError.message }
        decoder.sendEndOfStream()
    }
}
