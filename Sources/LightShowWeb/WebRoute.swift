public import LightShowControl

/// What a request asks for, once `WebRequestPolicy` let it through.
public enum WebRoute: Equatable, Sendable {
    /// `GET /` (and `HEAD /`): the page.
    case page
    /// `GET /metrics`: Prometheus text.
    case metrics
    /// `GET /api/status` or `POST /api/<cmd>`: one control command; its arguments come from the body.
    case command(ControlCommand)
    /// `GET /api/frames` as a WebSocket: scene and frame events at most `framesPerSecond` a second.
    case frames(framesPerSecond: Double)
}
