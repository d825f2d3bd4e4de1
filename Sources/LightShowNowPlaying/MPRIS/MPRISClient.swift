import LightShowSystem
public import LightShowCore
public import Logging
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Follows desktop players over MPRIS on the session bus: the one that plays, else the latest active, or the one
/// `pinned` names. Its state, title and position come as `NowPlayingEvent`s; the user's play/pause/stop go to it
/// as explicit `Play`/`Pause`/`Stop` when it says it can be controlled.
///
/// A thread of its own owns the bus connection (sd-bus is not thread-safe) and polls it beside a wake-up pipe for
/// commands and stop. Without a session bus it says so once and ends; the show goes on without a player.
public final class MPRISClient: PlayerThreadClient {
    public var name: String { "MPRIS " + followed.withLock { $0 } }

    private let pinned: String?
    private let logger: Logger
    let thread: PlayerThread
    private let followed = Mutex("(no player)")

    /// - Parameter pinned: follow only this player (`vlc` matches `org.mpris.MediaPlayer2.vlc` and its instances).
    public init(pinned: String? = nil, logger: Logger = Logger(label: "lightshow.mpris")) throws(LightShowError) {
        thread = try PlayerThread(threadName: "ls-mpris", client: "MPRIS client", logger: logger)
        self.pinned = pinned.flatMap { $0.isEmpty ? nil : $0 }
        self.logger = logger
    }

    /// True when the environment names a session bus: `DBUS_SESSION_BUS_ADDRESS`, or `$XDG_RUNTIME_DIR/bus`.
    public static func sessionBusPresent(_ environment: [String: String]) -> Bool {
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return true }
        guard let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty else { return false }
        return access(runtime + "/bus", F_OK) == 0
    }

    // MARK: The client's thread

    func run() {
        var environment: [String: String] = [:]
        for key in ["DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR"] { environment[key] = getenv(key).map { String(cString: $0) } }
        guard Self.sessionBusPresent(environment) else {
            // Headless or a system unit: nothing will appear later, so say it once and don't retry. (`auto` doesn't
            // even start MPRIS there; this is for a client asked for by name.)
            logger.warning("MPRIS: no session bus (DBUS_SESSION_BUS_ADDRESS is unset); desktop players can't be followed, the show goes on")
            continuation.finish()
            return
        }
        var backoff = ReopenBackoff(initial: 1, maximum: 60)
        var announced = false
        var published: NowPlayingEvent?
        while !thread.isStopped {
            do {
                let bus = try SDBus()
                let signals = MPRISSignals()
                try withExtendedLifetime(signals) { () throws(SDBusError) in
                    let session = try MPRISSession(bus: bus, signals: signals, logger: logger)
                    // Connected: the next outage is a new one, announced and retried from the shortest delay.
                    backoff.reset()
                    announced = false
                    try follow(session, published: &published)
                }
            } catch {
                if !announced {
                    logger.warning("MPRIS: \(error); the show goes on without a desktop player, retrying now and then")
                    announced = true
                } else {
                    logger.debug("MPRIS: still no session bus: \(error)")
                }
                if case .status = published {
                    published = .lost(error.description)
                    continuation.yield(.lost(error.description))
                }
            }
            if thread.pause(for: .seconds(backoff.next())) { break }
        }
        continuation.finish()
    }

    /// One connection, until the bus fails (throws) or the client stops (returns).
    private func follow(_ session: MPRISSession, published: inout NowPlayingEvent?) throws(SDBusError) {
        logger.info("MPRIS: following desktop players on the session bus\(pinned.map { " (only \($0))" } ?? "")")
        while true {
            try session.bus.processAll()
            try session.handleSignals()
            let chosen = MPRISPlayer.choose(session.players.values, pinned: pinned)
            for command in thread.takeCommands() {
                if let chosen { session.send(command, to: chosen) }
            }
            publish(chosen, published: &published)
            var descriptors = [
                pollfd(fd: session.bus.fileDescriptor, events: session.bus.pollEvents, revents: 0),
                pollfd(fd: thread.stopSignal.readFD, events: Int16(POLLIN), revents: 0),
                pollfd(fd: thread.commandSignal.readFD, events: Int16(POLLIN), revents: 0),
            ]
            // The bus's own deadline, a player to read again, or 5 s at most.
            let deadline = [session.bus.deadlineMicroseconds, session.nextRetry.map { $0 / 1_000 }].compactMap { $0 }.min()
            let timeout = deadline.map { deadline -> Duration in
                let now = MonotonicClock.now() / 1_000
                return .microseconds(Int64(clamping: deadline > now ? min(deadline - now, 5_000_000) : 0))
            } ?? .seconds(5)
            // Whatever woke it (or a failed poll), the loop reads the bus and the commands again.
            _ = Poll.wait(&descriptors, count: descriptors.count, timeout: timeout)
            if thread.isStopped { return }
        }
    }

    /// Tells the engine about the followed player when anything it shows changed; `.lost` once when none is left.
    private func publish(_ chosen: MPRISPlayer?, published: inout NowPlayingEvent?) {
        let event: NowPlayingEvent
        if let chosen {
            event = .status(chosen.status)
        } else {
            guard case .status = published else { return }
            event = .lost("no MPRIS player")
        }
        guard event != published else { return }
        let name = chosen.map { SafeText.sanitized($0.shortName, limit: 120) } ?? "(no player)"
        if followed.withLock({ current in defer { current = name }; return current != name }) {
            logger.info(chosen == nil ? "MPRIS: no player left to follow" : "MPRIS: following \(name)")
        }
        published = event
        continuation.yield(event)
    }
}
