import LightShowCore
import LightShowSystem
import Logging
#if canImport(Glibc)
import Glibc
#endif

/// The one sender thread's loop for every output: takes the newest input, lets each output send what is due,
/// then sleeps in poll until the nearest deadline or a wake-up. With every output idle (never lit, or stopped
/// and dark) there is no deadline at all: the thread sleeps until the show plays again.
final class LightsSender {
    /// No new frame for this long while playing or stopping: the engine is gone (input ended, daemon wedged),
    /// so go dark. Not while paused: a paused player may send no audio at all (MPD's fifo), and the engine
    /// then draws nothing new, yet the held, dimmed lights are what paused means.
    static let staleAfter: UInt64 = 5_000_000_000
    private let staleAfter: UInt64
    /// Longest a shutdown waits for the black and stream-terminated packets.
    static let shutdownLimit: UInt64 = 2_000_000_000
    /// Longest a shutdown then waits for Hue outputs to stop their areas.
    static let hueStopLimit: UInt64 = 1_500_000_000

    private let inbox: Locked<LightsInbox>
    private let wake: WakeSignal
    /// Told when what STATUS= shows of the outputs changes.
    private let statusChanges: Announcer
    private let cid: ComponentIdentifier
    private let logger: Logger
    private var outputs: [LightsOutput] = []
    /// Outputs a reload removed: they end their stream (black, then terminated) before they go.
    private var retiring: [LightsOutput] = []
    private var sequences = SequenceCounters()
    private var palette: LightPalette
    private var input: LightsInput?
    private var arrival: UInt64 = 0
    /// The show's frames by arrival, read by each output at its delay (`[output] delay` plus its own).
    private var line = FrameDelay<LightsInput>()
    /// `[output] delay`, nanoseconds.
    private var sharedDelay: UInt64
    private var stopping = false
    /// The largest level of the newest frame before a stop: a stop fades every level by the same factor, so the
    /// ratio to it says how far the fade has gone, and the background base fades with it.
    private var fadeReference: Float = 0

    init(
        plans: [LightOutputPlan], palette: LightPalette, delay: UInt64, inbox: Locked<LightsInbox>, wake: WakeSignal,
        statusChanges: Announcer, cid: ComponentIdentifier, logger: Logger, staleAfter: UInt64 = LightsSender.staleAfter
    ) {
        self.staleAfter = staleAfter
        sharedDelay = delay
        self.inbox = inbox
        self.wake = wake
        self.statusChanges = statusChanges
        self.cid = cid
        self.logger = logger
        self.palette = palette
        install(plans)
    }

    func run() {
        var stopDeadline: UInt64?
        while true {
            wake.consume()
            takeInbox()
            let now = MonotonicClock.now()
            if stopping, stopDeadline == nil { stopDeadline = now &+ Self.shutdownLimit }
            let next = advanceAll(now: now)
            let statuses = outputs.map(\.status)
            let changed = inbox.withLock { shared in
                defer {
                    shared.statuses = statuses
                    shared.turns += 1
                }
                return LightOutputStatus.summaryChanged(from: shared.statuses, to: statuses)
            }
            if changed { statusChanges.announce() }
            if let stopDeadline, next == nil || now >= stopDeadline { break }
            var deadline = next
            if let stopDeadline { deadline = min(deadline ?? .max, stopDeadline) }
            var descriptor = pollfd(fd: wake.readFD, events: Int16(POLLIN), revents: 0)
            _ = Poll.wait(&descriptor, count: 1, until: deadline)
        }
        let workers = (outputs + retiring).compactMap(\.hue)
        for worker in workers { worker.close() }
        let hueDeadline = MonotonicClock.now() &+ Self.hueStopLimit
        for worker in workers { worker.waitClosed(until: hueDeadline) }
    }

    private func takeInbox() {
        let taken = inbox.withLock { shared in
            shared.wakePending = false
            defer { shared.reload = nil }
            return (shared.input, shared.arrival, shared.reload, shared.stopping)
        }
        if case .frame(let frame) = taken.0, frame.state != .stopped {
            fadeReference = Band.allCases.map { frame.levels[$0] }.max() ?? 0
        }
        if taken.1 != arrival, let new = taken.0, case .frame = new { line.push(new, at: taken.1) }
        (input, arrival, stopping) = (taken.0, taken.1, taken.3)
        if let reload = taken.2 {
            palette = reload.palette
            sharedDelay = reload.delay
            install(reload.plans)
        }
    }

    /// Swaps in a reload's outputs; one that keeps its stream carries on, the others end theirs.
    private func install(_ plans: [LightOutputPlan]) {
        var previous = outputs
        outputs = plans.map { plan in
            let match = previous.firstIndex { $0.plan.key == plan.key }.map { previous.remove(at: $0) }
            return LightsOutput(plan: plan, background: palette.background, cid: cid, logger: logger, previous: match)
        }
        retiring += previous.filter(\.isLive)
        sequences.keep(only: Set((outputs + retiring).map(\.plan.key)))
    }

    /// Lets every output send what is due; the nearest deadline among them.
    private func advanceAll(now: UInt64) -> UInt64? {
        var next: UInt64?
        func note(_ deadline: UInt64?) {
            if let deadline { next = min(next ?? .max, deadline) }
        }
        var longestDelay: UInt64 = 0
        for (offset, output) in outputs.enumerated() {
            let delay = self.delay(of: output)
            longestDelay = max(longestDelay, delay)
            let (shown, shownArrival) = self.shown(delay: delay, now: now)
            let (scene, ending, endWhenDark) = self.scene(shown, arrival: shownArrival, for: offset, now: now)
            let since = ending ? now : min(shownArrival, now)
            if case .test(let step)? = shown, let step, step.output == offset { output.onlyChannel = step.channel } else { output.onlyChannel = nil }
            note(output.advance(now: now, scene: scene, arrival: since, ending: ending, endWhenDark: endWhenDark, sequences: &sequences))
            if !stopping { note(line.nextDue(delayedBy: delay, at: now)) }
        }
        line.discard(beyond: longestDelay, at: now)
        for output in retiring {
            note(output.advance(now: now, scene: .dark, arrival: now, ending: true, endWhenDark: true, sequences: &sequences))
        }
        retiring.removeAll { !$0.isLive }
        return next
    }

    /// An output's sync offset: `[output] delay` plus its own, nanoseconds.
    private func delay(of output: LightsOutput) -> UInt64 {
        sharedDelay &+ UInt64((max(0, output.plan.settings.delayMilliseconds) * 1e6).rounded())
    }

    /// What an output at `delay` shows now, and when it arrived there (its arrival plus the delay). A `lights test`
    /// step shows at once; a frame of the show once it is `delay` old.
    private func shown(delay: UInt64, now: UInt64) -> (LightsInput?, UInt64) {
        if case .test = input { return (input, arrival) }
        guard let due = line.value(delayedBy: delay, at: now) else { return (nil, now) }
        return (due.value, due.arrival &+ delay)
    }

    /// What output `offset` shows of `input`, whether that is an end, and whether black would be one (stopped).
    private func scene(
        _ input: LightsInput?, arrival: UInt64, for offset: Int, now: UInt64
    ) -> (LightScene, ending: Bool, endWhenDark: Bool) {
        guard !stopping, let input else { return (.dark, true, true) }
        switch input {
        case .frame(let frame):
            guard frame.state == .paused || now &- arrival < staleAfter else { return (.dark, true, true) }
            var background = 1.0
            if frame.state == .stopped {
                let largest = Band.allCases.map { frame.levels[$0] }.max() ?? 0
                background = fadeReference > 0 ? Double(min(1, max(0, largest / fadeReference))) : 0
            }
            var scene = LightScene(levels: frame.levels, bands: palette.bands, background: background)
            (scene.spectrum, scene.state) = (frame.spectrum, frame.state)
            return (scene, false, frame.state == .stopped)
        case .test(let step):
            guard let step, step.output == offset else {
                var black = LightScene(levels: .zero, bands: palette.bands, background: 0)
                black.state = .stopped
                return (black, false, false)
            }
            if let channel = step.channel { return (.audioSyncTest(channel: channel), false, false) }
            var levels = BandLevels.zero
            levels[step.band] = 1
            var bands = palette.bands
            bands[step.band].color = step.color
            return (LightScene(levels: levels, bands: bands, background: 0), false, false)
        }
    }
}
