import LightShowSystem
public import LightShowCore
public import Logging

/// Follows MPD's player: connects, reads `status` + `currentsong`, then waits on `idle player` and reads them again
/// after every change. Reconnects with backoff when MPD goes away or says something malformed.
///
/// All socket I/O runs on the client's own thread, so nothing it does can block or crash the show.
public final class MPDClient: PlayerThreadClient {
    public let address: MPDAddress
    public var name: String { "MPD at \(address)" }
    /// The client's thread; its command signal breaks into `idle`.
    let thread: PlayerThread
    private let password: String
    private let logger: Logger
    private let backoff: ReopenBackoff
    /// How long MPD may take to answer a command (not `idle`, which waits for news).
    private let replyTimeout: Duration

    public init(
        address: MPDAddress,
        password: String = "",
        logger: Logger = Logger(label: "lightshow.mpd"),
        backoff: ReopenBackoff = ReopenBackoff(initial: 0.1, maximum: 5),
        replyTimeout: Duration = .seconds(5)
    ) throws(LightShowError) {
        // A line break in the password would end the command and start another one.
        guard !password.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw LightShowError("[mpd] password must not contain control characters (such as a line break)", exitStatus: .config)
        }
        thread = try PlayerThread(threadName: "ls-mpd", client: "MPD client", logger: logger)
        self.address = address
        self.password = password
        self.logger = logger
        self.backoff = backoff
        self.replyTimeout = replyTimeout
    }

    /// The client for `[mpd]` settings, or nil when MPD is off (empty address).
    public convenience init?(settings: MPDSettings, logger: Logger = Logger(label: "lightshow.mpd")) throws(LightShowError) {
        guard !settings.address.isEmpty else { return nil }
        try self.init(address: MPDAddress(parsing: settings.address), password: settings.password, logger: logger)
    }

    // MARK: The client's thread

    func run() {
        var backoff = backoff
        var outageAnnounced = false
        while true {
            do {
                try session {
                    continuation.yield(.status($0))
                    backoff.reset()
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
            if thread.pause(for: .seconds(backoff.next())) { break }
        }
        logger.debug("MPD client for \(address) stopped")
        continuation.finish()
    }

    /// One connection, from the greeting until something goes wrong.
    private func session(onStatus: (NowPlayingStatus) -> Void) throws(MPDError) {
        let socket = try MPDSocket.connect(to: address, wakeFD: thread.stopSignal.readFD, timeout: replyTimeout)
        let version = try MPDProtocol.version(fromGreeting: socket.readLine(timeout: replyTimeout))
        if !password.isEmpty {
            try socket.send("password \(MPDProtocol.quoted(password))", timeout: replyTimeout)
            _ = try socket.readReply(timeout: replyTimeout)
        }
        logger.info("connected to MPD \(version) at \(address)")
        while true {
            let reported = try readStatus(over: socket)
            onStatus(reported)
            // Commands go after a fresh status, so a toggle turns into play or pause against MPD's state now.
            let commands = thread.takeCommands()
            if !commands.isEmpty {
                try send(commands, from: reported.state, over: socket)
                continue
            }
            try socket.send("idle player", timeout: replyTimeout)
            do throws(MPDError) {
                // No time-out: idle returns when the player changes, however long that takes. A command queued
                // since `takeCommands` leaves the signal readable, so idle ends at once and nothing waits.
                for field in try socket.readReply(timeout: nil, interruptFD: thread.commandSignal.readFD) where field.key != "changed" {
                    throw .protocolError("idle reply has '\(SafeText.sanitized(field.key, limit: 40))', expected 'changed'")
                }
            } catch .interrupted {
                // A command to send: leave idle (its reply may carry a change that raced us) and loop.
                try socket.send("noidle", timeout: replyTimeout)
                _ = try socket.readReply(timeout: replyTimeout)
            }
        }
    }

    /// The player's state and current song.
    private func readStatus(over socket: MPDSocket) throws(MPDError) -> NowPlayingStatus {
        try socket.send("status", timeout: replyTimeout)
        let status = try socket.readReply(timeout: replyTimeout)
        try socket.send("currentsong", timeout: replyTimeout)
        let song = try socket.readReply(timeout: replyTimeout)
        return try NowPlayingStatus(mpdStatus: status, currentSong: song)
    }

    /// MPD's words for the user's commands. A refusal (nothing queued to play, say) is logged, not fatal.
    private func send(_ commands: [UserCommand], from state: PlaybackState, over socket: MPDSocket) throws(MPDError) {
        var state = state
        for command in commands {
            let line: String
            switch command.resolved(from: state) {
            case .play, .toggle:
                line = state == .paused ? "pause 0" : "play"
                state = .playing
            case .pause:
                line = "pause 1"
                state = .paused
            case .stop:
                line = "stop"
                state = .stopped
            }
            try socket.send(line, timeout: replyTimeout)
            do throws(MPDError) {
                _ = try socket.readReply(timeout: replyTimeout)
                logger.info("sent '\(line)' to MPD at \(address)")
            } catch .ack(let refusal) {
                logger.warning("MPD at \(address) refused '\(line)': \(refusal)")
            }
        }
    }
}
