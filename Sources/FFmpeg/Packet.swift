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
    var duration: Int64 { pointer.pointee.duration }

    func unreference() { av_packet_unref(pointer) }
}
