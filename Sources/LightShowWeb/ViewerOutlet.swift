import LightShowControl
import LightShowCore
import LightShowSystem
import NIOCore

/// One WebSocket viewer's end of `FrameBroadcaster`, in its connection's pipeline just before the frame encoder, so
/// the broadcaster's ready-made frames go straight to the socket beside the frames Hummingbird writes (pings, the
/// close). It keeps the viewer's pace and watches its socket: a viewer whose socket is full is skipped (its turns
/// count as dropped frames) and gets the newest frame as soon as the socket drains; one whose socket stays full for
/// `stallSeconds` is closed. Owned by the server's event loop.
final class ViewerOutlet: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    let id: UInt64
    private(set) var pacer: ShowEventPacer
    private let stallSeconds: Double
    /// Told when the socket drains, to send this viewer what it missed. Weak: the broadcaster holds its outlets,
    /// and a connection may still drain while a stopping server lets go of it.
    private weak var broadcaster: FrameBroadcaster?
    private var context: ChannelHandlerContext?
    /// Closes the connection unless the socket drains first; armed only while it is full.
    private var stall: Scheduled<Void>?

    init(id: UInt64, framesPerSecond: Double, stallSeconds: Double, broadcaster: FrameBroadcaster) {
        self.id = id
        pacer = ShowEventPacer(framesPerSecond: framesPerSecond, now: MonotonicClock.seconds())
        self.stallSeconds = stallSeconds
        self.broadcaster = broadcaster
    }

    /// Ready for a frame: its socket takes more. Kept from the channel's writability events, which come for every
    /// change, rather than asked of the channel for every viewer at every frame.
    private(set) var isWritable = false

    /// Sends what is due to this viewer now (the scene if it changed, the newest frame if its turn came), each
    /// event's frame made once for every viewer by `frame`; returns the frames it dropped since the last call.
    func send(_ latest: ShowEventBoard.Latest, now: Double, frame: (ShowEventBoard.Event) -> ByteBuffer) -> UInt64 {
        guard let context, isWritable else { return 0 }
        let due = pacer.takeEvents(latest, now: now)
        if let scene = due.scene { context.write(wrapOutboundOut(frame(scene)), promise: nil) }
        if let next = due.frame { context.write(wrapOutboundOut(frame(next)), promise: nil) }
        if due.scene != nil || due.frame != nil { context.flush() }
        return pacer.takeDropped()
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        isWritable = context.channel.isWritable
        if !isWritable { armStall(context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stall?.cancel()
        stall = nil
        self.context = nil
        isWritable = false
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        isWritable = context.channel.isWritable
        if isWritable {
            stall?.cancel()
            stall = nil
            broadcaster?.drained(self)
        } else {
            armStall(context)
        }
        context.fireChannelWritabilityChanged()
    }

    private func armStall(_ context: ChannelHandlerContext) {
        guard stall == nil else { return }
        // Its writes would wait for a window that never opens, and so would the close handshake: only closing the
        // connection ends them.
        let channel = context.channel
        stall = context.eventLoop.scheduleTask(in: .nanoseconds(Int64(saturating: stallSeconds * 1e9))) {
            channel.close(promise: nil)
        }
    }
}
