import CFFmpeg

/// One decoded picture: owns an AVFrame.
public final class Frame {
    let pointer: UnsafeMutablePointer<AVFrame>

    init() {
        guard let frame = av_frame_alloc() else { fatalError("av_frame_alloc: out of memory") }
        pointer = frame
    }

    deinit {
        var frame: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&frame)
    }

    /// The decoder's best guess of the presentation time, in the stream's time base.
    var timestamp: Int64? {
        let value = pointer.pointee.best_effort_timestamp
        return value == cffmpeg_nopts_value() ? nil : value
    }

    /// The decoder met errors in it (missing references after a false sync point, damaged data)
    /// and concealed them: its pixels are not the picture.
    var hasErrors: Bool {
        pointer.pointee.decode_error_flags != 0 || pointer.pointee.flags & AV_FRAME_FLAG_CORRUPT != 0
    }

    /// The decoding timestamp of the packet it came from.
    var packetDecodingTimestamp: Int64? {
        pointer.pointee.pkt_dts == cffmpeg_nopts_value() ? nil : pointer.pointee.pkt_dts
    }

    /// Decodes without any other picture (an intra frame).
    var isKeyframe: Bool { pointer.pointee.key_frame != 0 }

    /// The picture's planes (`data`, `linesize`) for `body`: the pointers are into buffers this frame
    /// owns, valid only inside `body`, which keeps the frame alive until it returns. Taken any other
    /// way, they outlive the frame's last use, after which Swift may free it.
    func withPlanes<Result>(_ body: (AVFrame) throws -> Result) rethrows -> Result {
        try withExtendedLifetime(self) { try body(pointer.pointee) }
    }

    public var width: Int { Int(pointer.pointee.width) }
    public var height: Int { Int(pointer.pointee.height) }

    /// Takes over `other`'s picture, leaving `other` empty.
    func take(from other: Frame) {
        av_frame_unref(pointer)
        av_frame_move_ref(pointer, other.pointer)
    }

    func unreference() { av_frame_unref(pointer) }

    /// The display matrix this frame carries, if any (9 values, 16.16 fixed point).
    var displayMatrix: [Int32]? {
        guard let sideData = av_frame_get_side_data(pointer, AV_FRAME_DATA_DISPLAYMATRIX),
              sideData.pointee.size >= 36 else { return nil }
        return UnsafeRawPointer(sideData.pointee.data).map { raw in
            (0..<9).map { raw.loadUnaligned(fromByteOffset: $0 * 4, as: Int32.self) }
        }
    }
}
