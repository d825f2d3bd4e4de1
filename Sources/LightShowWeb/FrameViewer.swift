import HummingbirdWebSocket
import NIOCore

/// One WebSocket viewer of `/api/frames`: the scene, then the newest frame at most `framesPerSecond` a second, each
/// event a text message exactly as control-socket subscribers get it. `FrameBroadcaster` sends them from the event
/// loop; this viewer's task only reads what the viewer sends (Hummingbird answers its pings and its close), so it
/// wakes when the viewer speaks or leaves, never per frame.
struct FrameViewer {
    let broadcaster: FrameBroadcaster
    let framesPerSecond: Double
    /// Counts this viewer while it watches.
    let tally: ViewerTally
    /// The viewer's upgraded connection.
    let channel: any Channel

    func serve(inbound: WebSocketInboundStream) async throws {
        tally.joined()
        defer { tally.left() }
        let id = try await broadcaster.join(channel, framesPerSecond: framesPerSecond)
        defer { broadcaster.leave(id) }
        // Messages from the viewer mean nothing here; reading them lets a close from its side end this, as does the
        // broadcaster closing a viewer that stalled.
        for try await _ in inbound {}
    }
}
