import CFFmpeg

/// One compressed packet: owns an AVPacket.
final class Packet {
    let pointer: UnsafeMutablePointer<AVPacket>

    init() {
        guard let packet = av_packet_alloc() else { fatalError("av_packet_alloc: out of memory") }
        pointer = packet
    }

    deinit {
        var packet: UnsafeMutablePointer<AVPacket>? = pointer
        av_packet_free(&packet)
    }

    var streamIndex: Int { Int(pointer.pointee.stream_index) }
    var presentationTimestamp: Int64? { pointer.pointee.pts == cffmpeg_nopts_value() ? nil : pointer.pointee.pts }
    var decodingTimestamp: Int64? { pointer.pointee.dts == cffmpeg_nopts_value() ? nil : pointer.pointee.dts }
    var duration: Int64 { pointer.pointee.duration }
    /// The demuxer marks it as a keyframe: it decodes without the packets before it.
    var isKeyframe: Bool { pointer.pointee.flags & AV_PKT_FLAG_KEY != 0 }

    func unreference() { av_packet_unref(pointer) }

    /// Takes `other`'s data and fields, leaving it empty.
    func take(from other: Packet) {
        av_packet_unref(pointer)
        av_packet_move_ref(pointer, other.pointer)
    }
}
