public import LightShowCore
import LightShowSystem
import Synchronization

/// A viewer attached to a running daemon (`watch --connect`, `record --connect`): the `subscribe` stream read on a
/// thread of its own, the newest frame kept for whoever draws, and the user's commands sent in the background on a
/// connection of their own so a key never waits behind the stream.
public final class ShowSubscription: Sendable {
    public let path: String
    private let latest = Mutex<ShowFrame?>(nil)
    private let scene = Mutex<Scene.Style?>(nil)
    /// Why the stream ended (the daemon stopped, the socket broke); nil while it runs.
    private let ending = Mutex<String?>(nil)
    private let stream: ControlEventStream
    /// The user's commands; a burst (a knob held down) keeps the newest few.
    private let commands: ControlRequestQueue
    /// Called on the reader thread after each new frame and when the stream ends.
    private let onUpdate: @Sendable () -> Void

    /// Connects to the daemon at `path` and subscribes at `framesPerSecond`, blocking for the handshake (up to
    /// 5 s); `onUpdate` hears of each new frame and of the stream's end. Throws a message naming the socket (66
    /// when no daemon listens there).
    public init(path: String, framesPerSecond: Double, onUpdate: @escaping @Sendable () -> Void = {}) throws(LightShowError) {
        self.path = path
        self.onUpdate = onUpdate
        stream = try ControlClient.connect(to: path, timeoutSeconds: 5).subscribe(fps: framesPerSecond)
        do throws(LightShowError) {
            commands = try ControlRequestQueue(
                path: path, connections: 1, capacity: 16, overflow: .dropOldest, timeoutSeconds: 5, name: "ls-command"
            )
            try DedicatedThread.start(name: "ls-subscribe") { [self] in readStream() }
        } catch {
            stream.close()
            throw error
        }
    }

    /// The same from async code: the handshake waits on a thread of its own, never on the cooperative pool.
    public static func open(
        path: String, framesPerSecond: Double, onUpdate: @escaping @Sendable () -> Void = {}
    ) async throws(LightShowError) -> ShowSubscription {
        try await DedicatedThread.run(name: "ls-connect") { () throws(LightShowError) in
            try ShowSubscription(path: path, framesPerSecond: framesPerSecond, onUpdate: onUpdate)
        }
    }

    /// The newest frame the daemon sent, or nil before the first.
    public var latestFrame: ShowFrame? { latest.withLock { $0 } }

    /// Why the stream ended, or nil while frames still come.
    public var endReason: String? { ending.withLock { $0 } }

    /// The daemon's scene (colours, gradient, proportions, band ranges), or nil before its first scene event.
    public var latestScene: Scene.Style? { scene.withLock { $0 } }

    /// Sends play/pause/toggle/stop to the daemon in the background, in order; never blocks the caller. A failure
    /// shows on screen as a state that didn't change; the stream's end explains why.
    public func send(_ command: UserCommand) {
        guard let command = ControlCommand(rawValue: command.rawValue) else { return }
        commands.submit(command)
    }

    /// Asks the daemon to set `band`'s range (it validates and clamps it as its config would, and tells every
    /// viewer); in the background, in order with the other commands.
    public func setBand(_ band: Band, range: FrequencyRange) {
        commands.submit(.setBand, arguments: [
            "band": .string(band.rawValue), "lower": .number(range.lower), "upper": .number(range.upper),
        ])
    }

    /// Closes the stream; the reader thread ends, and so does the commands' thread once it has sent what waits.
    public func close() {
        stream.close()
        commands.finish()
    }

    private func readStream() {
        let reason: String
        do {
            while let event = try stream.nextEvent() {
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
