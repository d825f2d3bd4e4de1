import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1

/// Hummingbird's HTTP/1 channel with the WebSocket upgrade, and a `RequestGate` placed before the upgrade handler,
/// so every request, an upgrade included, passes the gate's checks first.
struct GuardedWebChannel: ServerChildChannel {
    typealias Value = HTTP1WebSocketUpgradeChannel.Value

    let inner: HTTP1WebSocketUpgradeChannel
    let makeGate: @Sendable () -> RequestGate

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        inner.setup(channel: channel, logger: logger).flatMapThrowing { value in
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
