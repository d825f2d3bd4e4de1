public import LightShowSystem

/// A subscribed connection's events, after `ControlClient.subscribe`: one thread reads them (`nextLine`,
/// `nextEvent`), any thread may `close` the stream, which wakes that reader.
/// Unchecked: the client's buffer is touched only by the one reader; `close` is a shutdown(2) of the socket.
public final class ControlEventStream: @unchecked Sendable {
    private let client: ControlClient

    init(_ client: ControlClient) {
        self.client = client
    }

    /// The control socket's path, for messages.
    public var path: String { client.path }

    /// The next event line without its newline; nil when the daemon closed the stream. From the reader only.
    public func nextLine() throws(SystemCallError) -> [UInt8]? {
        try client.readLine()
    }

    /// The next event parsed as JSON; nil when the daemon closed the stream. From the reader only.
    public func nextEvent() throws(SystemCallError) -> JSONValue? {
        try client.readJSON()
    }

    /// Ends the stream; a reader blocked on it wakes and sees the end.
    public func close() {
        client.disconnect()
    }
}
