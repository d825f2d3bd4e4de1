import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1

/// Hummingbird's HTTP/1 channel with the WebSocket upgrade, and a `RequestGate` placed before the upgrade handler,
/// so every request, an upgrade included, passes the gate's checks first. Each connection's output is bounded: a
/// fixed send buffer and a low write watermark, so a viewer that stops reading stalls its own writes after some
/// 50 KB (about 4 s of frames at 60 a second) and is then closed, instead of the kernel buffering megabytes for it.
struct GuardedWebChannel: ServerChildChannel {
    typealias Value = HTTP1WebSocketUpgradeChannel.Value

    let inner: HTTP1WebSocketUpgradeChannel
    let makeGate: @Sendable () -> RequestGate

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        inner.setup(channel: channel, logger: logger).flatMapThrowing { value in
            if let options = channel.syncOptions {
                try options.setOption(ChannelOptions.socketOption(.so_sndbuf), value: 32 * 1024)
                try options.setOption(ChannelOptions.writeBufferWaterMark, value: .init(low: 8 * 1024, high: 16 * 1024))
            }
            let operations = channel.pipeline.syncOperations
            let upgrader = try operations.handler(type: NIOTypedHTTPServerUpgradeHandler<HTTP1WebSocketUpgradeChannel.UpgradeResult>.self)
            try operations.addHandler(makeGate(), position: .before(upgrader))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}
