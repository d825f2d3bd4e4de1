import LightShowSystem
import LightShowAudio
public import LightShowCore
public import Logging
import Synchronization

/// What the MPD client tells the show.
public enum MPDEvent: Sendable, Equatable {
    /// MPD is connected; its state and song, after connecting and after every change of the player.
    case status(MPDStatus)
    /// MPD can't be reached or its connection failed: its state is unknown until the next `.status`.
    /// Sent once per outage while the client keeps reconnecting.
    case lost(String)
}

/// Follows MPD's player: connects, reads `status` + `currentsong`, then waits on `idle player` and reads them again
/// after every change. Reconnects with backoff when MPD goes away or says something malformed.
///
/// All socket I/O runs on the client's own thread, so nothing it does can block or crash the show.
public final class MPDClient: Sendable {
    /// How reconnecting backs off.
    public struct Backoff: Sendable {
        public var initial: Duration
        public var maximum: Duration

        public init(initial: Duration = .milliseconds(100), maximum: Duration = .seconds(5)) {
            self.initial = initial
            self.maximum = maximum
        }
    }

    public let address: MPDAddress
    /// The client's news, in order. Finishes after `stop()`.
    public let events: AsyncStream<MPDEvent>

    private let wake: WakeSignal
    private let started = Atomic<Bool>(false)
    private let password: String
    private let logger: Logger
    private let backoff: Backoff
    /// How long MPD may take to answer a command (not `idle`, which waits for news).
    private let replyTimeout: Duration
    private let continuation: AsyncStream<MPDEvent>.Continuation

    public init(
        address: MPDAddress,
        password: String = "",
        logger: Logger = Logger(label: "lightshow.mpd"),
        backoff: Backoff = Backoff(),
        replyTimeout: Duration = .seconds(5)
    ) throws(LightShowError) {
        do {
            wake = try WakeSignal()
        } catch {
            throw LightShowError("MPD client: \(error)", exitStatus: .ioError)
        }
        self.address = address
        self.password = password
        self.logger = logger
        self.backoff = backoff
        self.replyTimeout = replyTimeout
        (events, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(64))
        continuation.onTermination = { [wake] _ in wake.signal() }
    }

    /// The client for `[mpd]` settings, or nil when MPD is off (empty address).
    public convenience init?(settings: MPDSettings, logger: Logger = Logger(label: "lightshow.mpd")) throws(LightShowError) {
        guard !settings.address.isEmpty else { return nil }
        try self.init(address: MPDAddress(parsing: settings.address), password: settings.password, logger: logger)
    }

    /// Starts following MPD on the client's thread. Call once; later calls do nothing.
    public func start() {
        guard !started.exchange(true, ordering: .relaxed) else { return }
        do {
            try DedicatedThread.start(name: "MPD client") { [self] in run() }
        } catch {
            logger.error("\(error)")
            continuation.yield(.lost(error.description))
            continuation.finish()
        }
    }

    /// Stops the client: its thread leaves any wait at once, closes the connection, and `events` finishes.
    public func stop() {
        wake.signal()
    }

    // MARK: The client's thread

    private func run() {
        var delay = backoff.initial
        var outageAnnounced = false
        while true {
            do {
                try session {
                    continuation.yield(.status($0))
                    delay = backoff.initial
                    outageAnnounced = false
                }
            } catch .stopped {
                break
            } catch {
                if !outageAnnounced {
                    logger.warning("MPD at \(address): \(error); reconnecting")
                    continuation.yield(.lost(error.description))
                    outageAnnounced = true
                } else {
                    logger.debug("MPD at \(address) still unavailable: \(error)")
                }
            }
            if wake.wait(for: delay) { break }
            delay = min(delay * 2, backoff.maximum)
        }
        logger.debug("MPD client for \(address) stopped")
        continuation.finish()
    }

    /// One connection, from the greeting until something goes wrong.
    private func session(onStatus: (MPDStatus) -> Void) throws(MPDError) {
        let socket = try MPDSocket.connect(to: address, wakeFD: wake.readFD, timeout: replyTimeout)
        let version = try MPDProtocol.version(fromGreeting: socket.readLine(timeout: replyTimeout))
        if !password.isEmpty {
            try socket.send("password \(MPDProtocol.quoted(password))", timeout: replyTimeout)
            _ = try socket.readReply(timeout: replyTimeout)
        }
        logger.info("connected to MPD \(version) at \(address)")
        while true {
            try socket.send("status", timeout: replyTimeout)
            let status = try socket.readReply(timeout: replyTimeout)
            try socket.send("currentsong", timeout: replyTimeout)
            let song = try socket.readReply(timeout: replyTimeout)
            onStatus(try MPDStatus(status: status, currentSong: song))
            try socket.send("idle player", timeout: replyTimeout)
            // No time-out: idle returns when the player changes, however long that takes.
            for field in try socket.readReply(timeout: nil) where field.key != "changed" {
                throw .protocolError("idle reply has '\(field.key)', expected 'changed'")
            }
        }
    }
}
