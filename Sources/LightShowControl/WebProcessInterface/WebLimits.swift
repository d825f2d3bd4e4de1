/// The caps on every connection, from `[web]`.
public struct WebLimits: Sendable, Equatable {
    /// Most connections open at once; more are answered 503.
    public var maxConnections: Int
    /// A keep-alive connection with no new request for this long is closed.
    public var idleTimeoutSeconds: Double
    /// A request not complete (line, headers, body) this long after it began (or after the connection opened) is
    /// answered 408; a WebSocket viewer that takes no frame for this long is closed.
    public var requestTimeoutSeconds: Double
    /// Largest request body; more is answered 413.
    public var maxBodyBytes: Int
    /// Largest request line plus headers; more is answered 431.
    public var maxHeaderBytes: Int

    public init(
        maxConnections: Int = 64, idleTimeoutSeconds: Double = 30, requestTimeoutSeconds: Double = 10,
        maxBodyBytes: Int = 16_384, maxHeaderBytes: Int = 16_384
    ) {
        self.maxConnections = maxConnections
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.requestTimeoutSeconds = requestTimeoutSeconds
        self.maxBodyBytes = maxBodyBytes
        self.maxHeaderBytes = maxHeaderBytes
    }
}
