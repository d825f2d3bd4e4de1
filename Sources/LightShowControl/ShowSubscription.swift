public import LightShowCore
import LightShowSystem
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A viewer attached to a running daemon (`watch --connect`, `record --connect`): the `subscribe` stream read on a
/// thread of its own, the newest frame kept for whoever draws, and the user's commands sent on connections of
/// their own so a key never waits behind the stream.
public final class ShowSubscription: Sendable {
    public let path: String
    private let latest = Mutex<ShowFrame?>(nil)
    private let scene = Mutex<Scene.Style?>(nil)
    /// Why the stream ended (the daemon stopped, the socket broke); nil while it runs.
    private let ending = Mutex<String?>(nil)
    /// The stream's client: read only by the reader thread; other threads only `disconnect()` it (a shutdown(2)).
    private final class Stream: @unchecked Sendable {
        let client: ControlClient
        init(_ client: ControlClient) { self.client = client }
    }
    private let stream: Stream
    /// A request for the daemon: a command and its arguments.
    private struct Request: Sendable {
        var command: String
        var arguments: JSONObject
    }
    /// Requests waiting to go out, and whether a sender thread is running.
    private let outbox = Mutex<(queue: [Request], busy: Bool)>(([], false))
    /// Called on the reader thread after each new frame and when the stream ends.
    private let onUpdate: @Sendable () -> Void

    /// Connects to the daemon at `path` and subscribes at `framesPerSecond`; `onUpdate` hears of each new frame
    /// and of the stream's end. Throws a `UserFacingError` (66 when no daemon listens there, 74 for other failures).
    public init(path: String, framesPerSecond: Double, onUpdate: @escaping @Sendable () -> Void = {}) throws {
        self.path = path
        self.onUpdate = onUpdate
        let client = try Self.connect(path)
        let reply: JSONValue
        do {
            reply = try client.request("subscribe", arguments: ["fps": .number(framesPerSecond)])
        } catch {
            throw LightShowError("subscribe to \(path): \(error)", exitStatus: .ioError)
        }
        guard reply["ok"] == true else {
            throw LightShowError("subscribe to \(path): \(reply["error"]?.stringValue ?? "\(reply)")", exitStatus: .ioError)
        }
        client.setTimeout(nil)
        stream = Stream(client)
        try DedicatedThread.start(name: "ls-subscribe") { [self] in readStream(stream.client) }
    }

    /// Opens a connection, turning the failure into a message for people.
    static func connect(_ path: String) throws(LightShowError) -> ControlClient {
        do {
            return try ControlClient(path: path, timeoutSeconds: 5)
        } catch {
            if error.code == ENOENT || error.code == ECONNREFUSED {
                throw LightShowError("no lightshow daemon is listening on \(path) (\(error)); start one with `lightshow daemon`", exitStatus: .noInput)
            }
            throw LightShowError("cannot reach the daemon at \(path): \(error)", exitStatus: .ioError)
        }
    }

    /// The newest frame the daemon sent, or nil before the first.
    public var latestFrame: ShowFrame? { latest.withLock { $0 } }

    /// Why the stream ended, or nil while frames still come.
    public var endReason: String? { ending.withLock { $0 } }

    /// The daemon's scene (colours, gradient, proportions, band ranges), or nil before its first scene event.
    public var latestScene: Scene.Style? { scene.withLock { $0 } }

    /// Sends play/pause/toggle/stop to the daemon in the background, in order; never blocks the caller.
    public func send(_ command: UserCommand) {
        enqueue(Request(command: command.rawValue, arguments: [:]))
    }

    /// Asks the daemon to set `band`'s range (it validates and clamps it as its config would, and tells every
    /// viewer); in the background, in order with the other commands.
    public func setBand(_ band: Band, range: FrequencyRange) {
        enqueue(Request(command: "set-band", arguments: [
            "band": .string(band.rawValue), "lower": .number(range.lower), "upper": .number(range.upper),
        ]))
    }

    private func enqueue(_ request: Request) {
        let start = outbox.withLock { outbox in
            // A burst (a knob held down) keeps the newest few.
            if outbox.queue.count >= 16 { outbox.queue.removeFirst() }
            outbox.queue.append(request)
            defer { outbox.busy = true }
            return !outbox.busy
        }
        guard start else { return }
        do {
            try DedicatedThread.start(name: "ls-command") { [self] in sendQueued() }
        } catch {
            outbox.withLock { $0 = ([], false) }
        }
    }

    /// Closes the stream; the reader thread ends.
    public func close() {
        stream.client.disconnect()
    }

    private func sendQueued() {
        while let next = outbox.withLock({ outbox -> Request? in
            guard !outbox.queue.isEmpty else {
                outbox.busy = false
                return nil
            }
            return outbox.queue.removeFirst()
        }) {
            // A failure shows on screen as a state that didn't change; the stream's end explains why.
            _ = try? Self.connect(path).request(next.command, arguments: next.arguments)
        }
    }

    private func readStream(_ client: ControlClient) {
        let reason: String
        do {
            while let event = try client.readJSON() {
                if let frame = ShowFrameEvent.decode(event) {
                    latest.withLock { $0 = frame }
                    onUpdate()
                } else if let style = ShowSceneEvent.decode(event) {
                    scene.withLock { $0 = style }
                    onUpdate()
                }
            }
            reason = "the daemon closed the stream"
        } catch {
            reason = "the stream broke: \(error)"
        }
        ending.withLock { $0 = reason }
        onUpdate()
    }
}
