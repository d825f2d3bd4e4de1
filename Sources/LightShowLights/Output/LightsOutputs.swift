public import LightShowCore
import LightShowSystem
public import Logging

/// Every configured network light output, fed by the show engine. One sender thread serves them all, each at
/// its own rate; the engine only hands over its newest frame, so the network can never hold the show up.
///
/// Playback drives the lights: playing shows live levels, paused the held dimmed ones (the frame carries
/// both), and a stop follows the fade to black, then ends each stream (sACN: three stream-terminated packets)
/// and sends nothing until the show plays again.
public final class LightsOutputs: ShowSink {
    private let inbox: Locked<LightsInbox>
    private let wake: WakeSignal
    /// Readable once the sender thread has finished.
    private let done: WakeSignal
    /// The plans now running: a reload that can't resolve a host keeps that host's old address.
    private let plans: Locked<[LightOutputPlan]>
    private let logger: Logger
    /// Where Hue pairings are read from on reload.
    private let stateDirectory: String?
    /// Told, on the sender thread, when what `status` puts in STATUS= changes (not the packet counts).
    public let statusChanges = Announcer()

    /// Resolves every host and opens the sockets; an unresolvable host is a config error (exit 78).
    /// `stateDirectory` holds the persistent sACN CID (see `ComponentIdentifier.persistent`). Each output shows a
    /// frame `output` delay plus its own `delay` after it arrives.
    public convenience init(
        settings: [LightOutputSettings], bands: BandsSettings, background: BackgroundSettings,
        output: OutputSettings = OutputSettings(), stateDirectory: String?, logger: Logger
    ) throws(LightShowError) {
        try self.init(
            settings: settings, bands: bands, background: background, output: output, stateDirectory: stateDirectory,
            logger: logger, staleAfter: LightsSender.staleAfter
        )
    }

    /// `staleAfter`: nanoseconds without a frame after which a playing or stopping show goes dark (tests shorten it).
    init(
        settings: [LightOutputSettings], bands: BandsSettings, background: BackgroundSettings,
        output: OutputSettings = OutputSettings(), stateDirectory: String?, logger: Logger, staleAfter: UInt64
    ) throws(LightShowError) {
        let plans = try LightOutputPlanner.plans(for: settings, stateDirectory: stateDirectory)
        // Loaded even without sACN outputs when there is a state directory: a reload may add one.
        let needsCID = stateDirectory != nil || settings.contains { $0.networkProtocol == .sacn }
        let cid = needsCID ? ComponentIdentifier.persistent(in: stateDirectory, logger: logger) : ComponentIdentifier.random()
        do {
            wake = try WakeSignal()
            done = try WakeSignal()
        } catch {
            throw LightShowError("lights: \(error)", exitStatus: .ioError)
        }
        var initial = LightsInbox()
        initial.statuses = plans.map { LightOutputStatus(name: $0.name, destination: $0.destinationText) }
        let inbox = Locked(initial)
        self.inbox = inbox
        self.plans = Locked(plans)
        self.logger = logger
        self.stateDirectory = stateDirectory
        let palette = LightPalette(bands: bands, background: background)
        let delay = Self.nanoseconds(output.delayMilliseconds)
        try DedicatedThread.start(name: "ls-lights-send") { [wake, done, statusChanges] in
            LightsSender(
                plans: plans, palette: palette, delay: delay, inbox: inbox, wake: wake, statusChanges: statusChanges, cid: cid,
                logger: logger, staleAfter: staleAfter
            ).run()
            done.signal()
        }
        for plan in plans { logger.info("\(plan.name): \(plan.destinationText)") }
    }

    deinit {
        shutdown(waiting: false)
    }

    /// Hands over the newest frame and returns at once (the engine calls this with its lock held).
    public func show(_ frame: ShowFrame) {
        post(.frame(frame))
    }

    /// `lights test`: lights one band of one output (nil: all black) in place of the show.
    public func showTest(_ step: LightsTestStep?) {
        post(.test(step))
    }

    /// Applies a reloaded (already validated) configuration's `[[lights]]` and colours without touching capture.
    /// Outputs that keep their stream carry on; removed ones end theirs. A host that no longer resolves is
    /// logged and keeps its old address; a socket that can't be opened throws, and the old outputs keep running.
    /// Looks host names up, which can block on DNS: call it from the reload path, not with the engine's lock held.
    public func reconfigure(_ configuration: Configuration) throws(LightShowError) {
        let previous = plans.current
        let new = try LightOutputPlanner.replans(for: configuration.lights, previous: previous, stateDirectory: stateDirectory) { problem in
            logger.error("reload: \(problem)")
        }
        plans.withLock { $0 = new }
        let brightness = configuration.scene.brightness
        let palette = LightPalette(bands: configuration.bands.dimmed(by: brightness), background: configuration.background.dimmed(by: brightness))
        let needsWake = inbox.withLock { shared in
            shared.reload = (new, palette, Self.nanoseconds(configuration.output.delayMilliseconds))
            defer { shared.wakePending = true }
            return !shared.wakePending
        }
        if needsWake { wake.signal() }
    }

    /// Each output's destination, packets sent and last error (for `ctl status` and STATUS=).
    public var status: [LightOutputStatus] {
        inbox.withLock { $0.statuses }
    }

    /// How many times the sender thread has woken (for tests).
    var senderTurns: Int {
        inbox.withLock { $0.turns }
    }

    /// Sends black, then sACN's stream-terminated packets, then stops the thread; waits up to about two seconds
    /// for that. Safe to call more than once.
    public func shutdown() {
        shutdown(waiting: true)
    }

    private func shutdown(waiting: Bool) {
        let first = inbox.withLock { shared in
            defer { shared.stopping = true }
            return !shared.stopping
        }
        if first { wake.signal() }
        guard waiting else { return }
        // Never consumed: every later call returns at once.
        _ = done.wait(for: .nanoseconds(Int64(LightsSender.shutdownLimit + LightsSender.hueStopLimit)) + .milliseconds(500))
    }

    private static func nanoseconds(_ milliseconds: Double) -> UInt64 {
        UInt64((min(OutputSettings.maximumDelayMilliseconds, max(0, milliseconds)) * 1e6).rounded())
    }

    private func post(_ input: LightsInput) {
        let now = MonotonicClock.now()
        let needsWake = inbox.withLock { shared in
            shared.input = input
            shared.arrival = now
            defer { shared.wakePending = true }
            return !shared.wakePending
        }
        if needsWake { wake.signal() }
    }
}
