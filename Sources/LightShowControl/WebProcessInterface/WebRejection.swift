/// Why a request is refused: its HTTP status and a message for the client (`{"ok":false,"error":"…"}`).
public struct WebRejection: Error, Equatable, Sendable {
    public var status: Int
    public var message: String
    /// For 405: the methods the path takes.
    public var allow: String?

    public init(_ status: Int, _ message: String, allow: String? = nil) {
        self.status = status
        self.message = message
        self.allow = allow
    }

    /// The `reason` label of `lightshow_web_refusals_total`, one per status.
    public var reason: String { Self.reasons[status] ?? "other" }

    /// Every status the server refuses with, and its label.
    public static let reasons: [Int: String] = [
        400: "bad_request", 401: "token", 403: "origin", 404: "not_found", 405: "method", 408: "timeout",
        409: "conflict", 413: "body_too_large", 414: "target_too_long", 421: "host", 431: "headers_too_large", 503: "busy",
    ]

    /// The JSON body: `{"ok":false,"error":"…"}` and a newline.
    public var body: [UInt8] {
        (["ok": false, "error": .string(message)] as JSONValue).line
    }
}
