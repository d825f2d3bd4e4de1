import LightShowCore
import LightShowSystem
import Logging

/// One connection's worth of following MPRIS players: finds them (`ListNames`, then `NameOwnerChanged`), reads
/// their properties (`GetAll`, again after each `PropertiesChanged`), and sends them the user's commands.
/// Runs on the client's thread, which owns the bus.
final class MPRISSession {
    static let maximumPlayers = 64
    /// How long a player that didn't answer is left alone.
    static let muteNanoseconds: UInt64 = 5_000_000_000
    static let playerPath = "/org/mpris/MediaPlayer2"
    static let playerInterface = "org.mpris.MediaPlayer2.Player"

    let bus: SDBus
    let signals: MPRISSignals
    let logger: Logger
    private(set) var players: [String: MPRISPlayer] = [:]
    /// Players to read again before the next decision.
    private var dirty: Set<String> = []
    /// Players that didn't answer in time, left alone until then (monotonic nanoseconds): one that floods change signals
    /// but never answers would otherwise cost a one-second wait on every turn of the loop.
    private var mutedUntil: [String: UInt64] = [:]

    /// Subscribes first, then lists: a player that appears in between is not missed.
    init(bus: SDBus, signals: MPRISSignals, logger: Logger) throws(SDBusError) {
        self.bus = bus
        self.signals = signals
        self.logger = logger
        let userdata = Unmanaged.passUnretained(signals).toOpaque()
        try bus.matchSignal(sender: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                            member: "NameOwnerChanged", handler: MPRISSignals.nameOwnerChanged, userdata: userdata)
        try bus.matchSignal(sender: nil, path: Self.playerPath, interface: "org.freedesktop.DBus.Properties",
                            member: "PropertiesChanged", handler: MPRISSignals.propertiesChanged, userdata: userdata)
        try rescan()
    }

    /// Lists every player on the bus and reads each.
    func rescan() throws(SDBusError) {
        let reply = try bus.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "ListNames")
        let names = try reply.reader().next()?.strings ?? []
        let present = Set(names.filter(MPRISPlayer.isPlayer).prefix(Self.maximumPlayers))
        for gone in players.keys where !present.contains(gone) { players[gone] = nil }
        for name in present { appeared(name, owner: nil) }
    }

    /// Acts on the queued signals, then reads the players that changed.
    func handleSignals() throws(SDBusError) {
        let (queued, overflowed) = signals.take()
        if overflowed { return try rescan() }
        for signal in queued {
            switch signal {
            case .owner(let name, let owner) where owner.isEmpty:
                mutedUntil[name] = nil
                if players.removeValue(forKey: name) != nil { logger.debug("MPRIS player \(SafeText.sanitized(name, limit: 120)) left") }
            case .owner(let name, let owner):
                appeared(name, owner: owner)
            case .changed(let sender):
                for (name, player) in players where player.owner == sender { dirty.insert(name) }
            }
        }
        // A player left alone for now stays dirty: a change it signalled meanwhile is read once it may be asked.
        dirty = dirty.filter { !refresh($0) }
    }

    /// When a player left dirty may be asked again (monotonic nanoseconds), so the client's wait ends then.
    var nextRetry: UInt64? {
        dirty.compactMap { mutedUntil[$0] }.min()
    }

    /// Sends play, pause or stop to `player` when it takes commands.
    func send(_ command: UserCommand, to player: MPRISPlayer) {
        guard player.canControl else { return }
        let member: String
        switch command.resolved(from: player.state) {
        case .play, .toggle: member = "Play"
        case .pause: member = "Pause"
        case .stop: member = "Stop"
        }
        do {
            try bus.send(player.owner, Self.playerPath, Self.playerInterface, member)
            logger.info("sent \(member) to MPRIS player \(SafeText.sanitized(player.shortName, limit: 120))")
        } catch {
            logger.warning("MPRIS player \(SafeText.sanitized(player.shortName, limit: 120)): \(error)")
        }
    }

    /// A player name that appeared (or changed owner): learn its owner, then read it.
    private func appeared(_ name: String, owner: String?) {
        guard players[name] != nil || players.count < Self.maximumPlayers else { return }
        let owner = owner ?? (try? bus.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                            "GetNameOwner", [.string(name)]).reader().next()?.string) ?? nil
        guard let owner, !owner.isEmpty else { return }
        if players[name] == nil {
            players[name] = MPRISPlayer(busName: name, owner: owner, lastActive: MonotonicClock.now())
            logger.debug("MPRIS player \(SafeText.sanitized(name, limit: 120)) appeared")
        }
        players[name]?.owner = owner
        if !refresh(name) { dirty.insert(name) }
    }

    /// Reads a player's properties again (at most a second: a player that hangs is left as it was). False when it
    /// must be read later: it is left alone for now, or it didn't answer in time, or has never answered at all.
    private func refresh(_ name: String) -> Bool {
        guard var player = players[name] else { return true }
        if let until = mutedUntil[name] {
            guard MonotonicClock.now() >= until else { return false }
            mutedUntil[name] = nil
        }
        do throws(SDBusError) {
            let reply = try bus.call(name, Self.playerPath, "org.freedesktop.DBus.Properties", "GetAll",
                                     [.string(Self.playerInterface)])
            let before = player
            player.apply(try reply.reader().next()?.dictionary ?? [:])
            if player.state != before.state || player.title != before.title { player.lastActive = MonotonicClock.now() }
            players[name] = player
            return true
        } catch {
            logger.debug("MPRIS player \(SafeText.sanitized(name, limit: 120)) didn't answer: \(error)")
            guard error.timedOut || !player.isKnown else { return true }
            mutedUntil[name] = MonotonicClock.now() + Self.muteNanoseconds
            return false
        }
    }
}
