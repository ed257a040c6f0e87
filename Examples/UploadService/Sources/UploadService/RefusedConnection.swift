import NIOCore
import Synchronization

/// A connection past `OpenConnections`' counts, answered with the refusal as soon as it is active.
/// A socket closed with bytes unread sends a reset that can overtake what was written to it, and
/// the client's request (sent as it connected) is unread: so its output is closed after the
/// refusal (the client sees its end), what it sends is read and dropped, and it is closed once the
/// client has closed its side or a second has passed. A few dozen linger so at once; past them a
/// refused connection is closed at once, reset or not, so a flood of them holds few descriptors.
final class RefusedConnection: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    static let mostLingering = 64
    static let longestLingering: TimeAmount = .seconds(1)
    private static let lingeringNow = Mutex(0)

    private var lingers = false

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { refuse(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        refuse(context: context)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case ChannelEvent.inputClosed = event { context.close(promise: nil) }
    }

    func channelInactive(context: ChannelHandlerContext) {
        if lingers {
            lingers = false
            Self.lingeringNow.withLock { $0 -= 1 }
        }
        // HTTP's handlers behind end their reading on it: the connection's task ends.
        context.fireChannelInactive()
    }

    private func refuse(context: ChannelHandlerContext) {
        lingers = Self.lingeringNow.withLock { count in
            guard count < Self.mostLingering else { return false }
            count += 1
            return true
        }
        let channel = context.channel
        let lingers = self.lingers
        context.writeAndFlush(wrapOutboundOut(OpenConnections.refusal)).whenComplete { _ in
            guard lingers else { return channel.close(promise: nil) }
            channel.close(mode: .output, promise: nil)
            channel.eventLoop.scheduleTask(in: Self.longestLingering) { channel.close(promise: nil) }
        }
    }
}
