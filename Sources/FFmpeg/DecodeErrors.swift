/// The errors met while decoding a stream: the last one's words, given as the cause when no frame
/// comes, and how many, so that a file of corrupt packets ends the decoding instead of going on
/// to its end one rejected packet at a time.
struct DecodeErrors {
    /// The words of the last error (a rejected packet or frame, or the read that ended the stream).
    var last: String?
    private(set) var count = 0

    /// Past this many, decoding gives up.
    static var limit: Int { 1000 }

    var areTooMany: Bool { count > Self.limit }

    mutating func record(_ message: String) {
        last = message
        count += 1
    }
}

extension Decoder {
    /// Sends a packet; false when the decoder refused it (the error recorded). A decoder that is
    /// full (EAGAIN) has not refused it: its frames are received first.
    func send(_ packet: Packet, noting errors: inout DecodeErrors) -> Bool {
        let code = send(packet)
        guard code < 0 && code != FFmpegError.tryAgain else { return true }
        errors.record(FFmpegError("cannot decode", code: code).message)
        return false
    }

    /// What the decoder has for `frame`; nil for a frame it could not decode (the error recorded).
    func receive(into frame: Frame, noting errors: inout DecodeErrors) -> Received? {
        do {
            return try receive(into: frame)
        } catch {
            errors.record(error.message)
            return nil
        }
    }
}
