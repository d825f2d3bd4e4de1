#if canImport(Glibc)
import Glibc
#endif

public import LightShowSystem
public import LightShowCore

/// The one client of the control socket, blocking (run it on a thread of its own): `request` sends a command and
/// waits for its reply, `subscribe` makes the handshake and turns the connection into a stream of events. `ctl`,
/// the viewers (`watch --connect`, `record --connect`) and the web server's relay and forwarder all use it. A
/// timeout bounds every wait and a whole request.
public final class ControlClient {
    public let path: String
    private let socket: OwnedDescriptor
    private var fd: Int32 { socket.rawValue }
    private var buffer: [UInt8] = []
    private var nextID = 1
    /// The timeout set last, seconds; 0 waits for ever.
    private var timeoutSeconds: Double

    public init(path: String, timeoutSeconds: Double = 10) throws(SystemCallError) {
        socket = try UnixSocket.connect(to: path, timeoutSeconds: timeoutSeconds)
        self.path = path
        self.timeoutSeconds = timeoutSeconds
    }

    /// Connects to the daemon at `path`, turning a failure into a message for people: 66 when no daemon listens
    /// there, 74 for any other failure.
    public static func connect(to path: String, timeoutSeconds: Double) throws(LightShowError) -> ControlClient {
        do {
            return try ControlClient(path: path, timeoutSeconds: timeoutSeconds)
        } catch {
            if error.code == ENOENT || error.code == ECONNREFUSED {
                throw LightShowError(
                    "no lightshow daemon is listening on \(path) (\(error)); start one with `lightshow daemon`", exitStatus: .noInput
                )
            }
            throw LightShowError("cannot reach the daemon at \(path): \(error)", exitStatus: .ioError)
        }
    }

    /// The `subscribe` handshake: asks for events at `fps` (nil: the daemon's default) and checks the answer,
    /// including the daemon's protocol version; from then on the connection carries events, read from the stream
    /// returned (which owns this client). A refusal is 65, anything else 74, each naming the socket.
    public func subscribe(fps: Double?) throws(LightShowError) -> ControlEventStream {
        let failure = { (detail: String, status: ExitStatus) in
            LightShowError("subscribe to \(self.path): \(SafeText.sanitized(detail, limit: 300))", exitStatus: status)
        }
        let reply: JSONValue
        do {
            reply = try request(ControlCommand.subscribe.rawValue, arguments: fps.map { ["fps": .number($0)] } ?? [:])
        } catch {
            throw failure("\(error)", .ioError)
        }
        switch ControlReply(reply: reply) {
        case .failure(let message):
            throw failure(message, .dataError)
        case .success(let result):
            let version = result["protocol"] ?? .number(1)
            guard version == .number(Double(ControlRequest.protocolVersion)) else {
                throw failure(
                    "the daemon speaks control protocol \(version), this lightshow speaks \(ControlRequest.protocolVersion)"
                        + " (restart the daemon after an upgrade)",
                    .ioError
                )
            }
        }
        setTimeout(nil)
        return ControlEventStream(self)
    }

    /// Longest line accepted from the daemon (a scene event is a few KiB).
    public static let maximumLineBytes = 1 << 20

    /// How long a read or write may wait; nil waits for ever (a subscription's stream).
    public func setTimeout(_ seconds: Double?) {
        timeoutSeconds = seconds ?? 0
        Socket.setTimeouts(fd, seconds: timeoutSeconds)
    }


    /// Sends `{"id":N,"cmd":command, …arguments}` and waits for the reply with that id (events a subscribed
    /// connection receives meanwhile are skipped), within the timeout in all: a peer that keeps sending other lines
    /// can't hold it longer.
    public func request(_ command: String, arguments: JSONObject = [:]) throws(SystemCallError) -> JSONValue {
        let id = nextID
        nextID += 1
        var object: JSONObject = ["id": .number(Double(id)), "cmd": .string(command)]
        for member in arguments.members { object[member.key] = member.value }
        try send(JSONValue.object(object).line)
        let deadline = timeoutSeconds > 0 ? MonotonicClock.now() &+ UInt64(min(timeoutSeconds, 1e9) * 1e9) : nil
        defer { if deadline != nil { Socket.setTimeouts(fd, seconds: timeoutSeconds) } }
        while true {
            guard let line = try readLine(until: deadline) else {
                throw SystemCallError("read \(path): connection closed", code: ECONNRESET)
            }
            let reply = try parse(line)
            if reply["id"] == .number(Double(id)) { return reply }
        }
    }

    /// Writes raw bytes (tests use this for malformed lines), within the timeout.
    public func send(_ bytes: [UInt8]) throws(SystemCallError) {
        // The socket's send timeout makes a full socket answer EAGAIN; the deadline bounds the wait that follows.
        let deadline = timeoutSeconds > 0 ? MonotonicClock.now() &+ UInt64(min(timeoutSeconds, 1e9) * 1e9) : nil
        switch try FileDescriptorIO.writeAll(fd, bytes, kind: .socket, deadline: deadline) {
        case .complete: return
        case .closed: throw SystemCallError("write \(path)", code: EPIPE)
        case .timedOut, .interrupted: throw SystemCallError("write \(path): no room in time", code: EAGAIN)
        }
    }

    /// Tells the server nothing more will be sent; replies still arrive.
    public func finishSending() {
        Socket.shutdownWriting(fd)
    }

    /// Ends the connection both ways, waking a read blocked on it (from another thread).
    public func disconnect() {
        Socket.shutdownBoth(fd)
    }

    /// The next line without its newline; nil at end of stream. Throws on timeout, and once `deadline` (monotonic
    /// nanoseconds) has passed.
    public func readLine(until deadline: UInt64? = nil) throws(SystemCallError) -> [UInt8]? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(buffer[..<newline])
                buffer.removeFirst(newline + 1)
                return line
            }
            if let deadline {
                let now = MonotonicClock.now()
                guard now < deadline else { throw SystemCallError("read \(path): no reply in time", code: EAGAIN) }
                // At least a millisecond: a zero timeout would wait for ever.
                Socket.setTimeouts(fd, seconds: max(0.001, Double(deadline - now) / 1e9))
            }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let outcome: FileDescriptorIO.ReadOutcome
            do throws(SystemCallError) {
                outcome = try FileDescriptorIO.read(fd, into: &chunk)
            } catch {
                throw SystemCallError("read \(path)", code: error.code)
            }
            switch outcome {
            case .bytes(let count): buffer += chunk[0..<count]
            case .endOfFile: return nil
            // The socket's receive timeout.
            case .wouldBlock: throw SystemCallError("read \(path): no reply in time", code: EAGAIN)
            }
            // A daemon's lines are short; one without end is a broken or hostile peer, not a reason to grow.
            guard buffer.count <= Self.maximumLineBytes || buffer.contains(UInt8(ascii: "\n")) else {
                throw SystemCallError("read \(path): line longer than \(Self.maximumLineBytes) bytes", code: EPROTO)
            }
        }
    }

    /// The next line parsed as JSON; nil at end of stream.
    public func readJSON() throws(SystemCallError) -> JSONValue? {
        guard let line = try readLine() else { return nil }
        return try parse(line)
    }

    private func parse(_ line: [UInt8]) throws(SystemCallError) -> JSONValue {
        do {
            return try JSONParser.parse(line)
        } catch {
            throw SystemCallError("read \(path): \(error.description)", code: EPROTO)
        }
    }
}
