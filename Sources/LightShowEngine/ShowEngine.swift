import LightShowAnalysis
public import LightShowNowPlaying
public import LightShowAudio
public import LightShowCore
import LightShowSystem
public import Logging
import Synchronization

/// Joins an audio source, the analyser, the playback-state machine, user commands and a now-playing source (MPD,
/// MPRIS) into the frames every
/// sink draws.
///
/// While the show is stopped and dark on a live input, analysis and rendering sleep: each captured block gets
/// only a cheap level check until sound (or a command) wakes the show, and no timer runs.
public final class ShowEngine: Sendable {
    /// How a run begins and ends, beyond the configuration.
    public struct Options: Sendable {
        /// Analysis frames per second (the frames every sink gets).
        public var framesPerSecond: Double
        /// Seconds of audio to take in before the input counts as ended; nil = until it ends.
        public var audioLimitSeconds: Double?
        /// At the end of the input, emit the stop's whole fade-out at once, one frame per frame interval after the
        /// last audio, ending on the dark frame: a recording's tail, so it ends as `watch` shows it.
        public var fadeOutTail: Bool
        /// Where frames, analysis time and latency are counted (the daemon's metrics); nil counts nothing.
        public var metrics: EngineMetrics?

        public init(
            framesPerSecond: Double, audioLimitSeconds: Double? = nil, fadeOutTail: Bool = false, metrics: EngineMetrics? = nil
        ) {
            self.framesPerSecond = framesPerSecond
            self.audioLimitSeconds = audioLimitSeconds
            self.fadeOutTail = fadeOutTail
            self.metrics = metrics
        }
    }

    public let source: any AudioSource
    private let configuration: Configuration
    private let options: Options
    private let player: (any NowPlayingSource)?
    private let logger: Logger
    private let makeAnalyzer: @Sendable () -> any BlockAnalyzer
    /// A live input's clock (offline inputs follow their audio).
    private let clock: any Clock<Duration>
    private let events: AsyncStream<ShowEvent>
    private let inbox: AsyncStream<ShowEvent>.Continuation
    private let currentStatus: Mutex<ShowStatus>
    private let hasRun = Atomic<Bool>(false)

    /// - Parameters:
    ///   - clock: a live input's clock: its idle deadlines, fades and timers (tests move a manual one).
    ///   - makeAnalyzer: builds the analyser for `source` (called once, on the engine's task).
    public init(
        source: any AudioSource,
        configuration: Configuration,
        options: Options,
        player: (any NowPlayingSource)? = nil,
        logger: Logger = Logger(label: "lightshow.engine"),
        clock: any Clock<Duration> = ContinuousClock(),
        makeAnalyzer: @escaping @Sendable () -> any BlockAnalyzer
    ) {
        self.source = source
        self.clock = clock
        self.configuration = configuration
        self.options = options
        self.player = player
        self.logger = logger
        self.makeAnalyzer = makeAnalyzer
        (events, inbox) = AsyncStream.makeStream(of: ShowEvent.self)
        currentStatus = Mutex(ShowStatus(
            state: .stopped, reason: .initial, title: source.spec.defaultTitle, playerConnected: false
        ))
    }

    /// An engine analysing with `LevelAnalyzer` at `options.framesPerSecond`, with the bands and settings of
    /// `configuration`.
    public convenience init(
        source: any AudioSource,
        configuration: Configuration,
        options: Options,
        player: (any NowPlayingSource)? = nil,
        logger: Logger = Logger(label: "lightshow.engine"),
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        let sampleRate = source.sampleRate
        let framesPerSecond = options.framesPerSecond
        self.init(
            source: source, configuration: configuration, options: options, player: player, logger: logger, clock: clock
        ) { [
            analysis = configuration.analysis, bands = configuration.bands, accents = configuration.accents,
            background = configuration.background, spectrum = configuration.wantsSpectrumSummary
        ] in
            let analyzer = LevelAnalyzer(
                settings: analysis, bands: bands, accents: accents, background: background, sampleRate: sampleRate,
                framesPerSecond: framesPerSecond
            )
            analyzer.summarizeSpectrum(spectrum, settings: analysis)
            return analyzer
        }
    }

    /// The state, its reason and the title right now.
    public var status: ShowStatus { currentStatus.withLock { $0 } }
    /// Told when `status` changes, on the thread that changed it (after the engine let go of its lock).
    public let statusChanges = Announcer()

    /// A user's play/pause/toggle/stop (keys, `ctl`). Safe from any task or thread.
    public func send(_ command: UserCommand) {
        inbox.yield(.user(command))
    }

    /// A reloaded configuration: band ranges, analysis and playback settings apply from the next hop, without touching
    /// the source. Safe from any task or thread.
    public func reconfigure(_ configuration: Configuration) {
        inbox.yield(.reconfigure(configuration))
    }

    /// Runs the show, handing each frame to every sink. Returns when the input ends; throws when it fails for good
    /// or a sink throws. Call once.
    ///
    /// Audio is handled where the source delivers it (a live source's own reader thread, a file's reader), so a
    /// block costs no extra wake-up; commands, the player and timers come on a task of their own. Either takes
    /// the engine's lock only to run the loop, then performs what it decided after letting go (`ShowActions`),
    /// in order, so sinks are never called twice at once.
    public func run(_ sinks: [any ShowSink]) async throws {
        guard !hasRun.exchange(true, ordering: .relaxed) else {
            throw LightShowError("the show engine runs only once", exitStatus: .usage)
        }
        let follower = player.map { player in
            player.start()
            return Task { [inbox] in
                for await event in player.events { inbox.yield(.player(event)) }
            }
        }
        defer {
            follower?.cancel()
            player?.stop()
        }
        let report: @Sendable (ShowStatus) -> Void = { status in
            let changed = self.currentStatus.withLock { current in
                defer { current = status }
                return current != status
            }
            if changed { self.statusChanges.announce() }
        }
        let output = SinkFanOut(sinks)
        if source.isLive {
            if let clock = clock as? ContinuousClock {
                // Named, so the loop is compiled for the real clock: opened from the existential, the loop stays
                // generic and looks up its types' metadata on every block, which costs an idle show ~15% more CPU.
                try await driveLive(clock, output: output, report: report)
            } else {
                try await driveLive(clock, output: output, report: report)
            }
        } else {
            let clock = ManualClock()
            let analyzer = timedAnalyzer()
            try await drive(ShowLoop(
                clock: clock, followAudio: { clock.advance(to: .init(offset: .seconds($0))) },
                analyzer: analyzer, spec: source.spec, sampleRate: source.sampleRate,
                configuration: configuration, options: options, playerName: player?.name, passesAudio: output.takesAudio
            ), output: output, report: report)
        }
    }

    /// The live show on `clock`.
    private func driveLive<C: Clock>(
        _ clock: C, output: SinkFanOut, report: @escaping @Sendable (ShowStatus) -> Void
    ) async throws where C.Duration == Duration {
        let analyzer = timedAnalyzer()
        try await drive(ShowLoop(
            clock: clock, followAudio: nil, analyzer: analyzer, spec: source.spec, sampleRate: source.sampleRate,
            configuration: configuration, options: options, playerName: player?.name, passesAudio: output.takesAudio
        ), output: output, report: report)
    }

    /// The analyser, timed when the run is counted.
    private func timedAnalyzer() -> any BlockAnalyzer {
        let analyzer = makeAnalyzer()
        guard let metrics = options.metrics else { return analyzer }
        return TimedAnalyzer(analyzer, hops: metrics.analysisHop)
    }

    private func drive<C>(
        _ loop: sending ShowLoop<C>, output: SinkFanOut, report: @escaping @Sendable (ShowStatus) -> Void
    ) async throws {
        let show = LockedShow(loop, actions: ShowActions(
            output: output, clock: loop.clock, inbox: inbox, player: player, pace: source.pace, metrics: options.metrics,
            logger: logger, report: report
        ))
        do {
            try show.handle { loop, actions in loop.begin(&actions) }
        } catch {
            show.fail(error)
        }
        // Commands, the player and timers, on a task of their own.
        let listener = Task { [events] in
            for await event in events {
                do {
                    try show.handle { loop, actions in loop.handle(event, &actions) }
                } catch {
                    show.fail(error)
                    return
                }
            }
        }
        defer { listener.cancel() }
        var failure: (any Error)?
        do {
            try await withTaskCancellationHandler {
                // Every source delivers on its own thread; the engine's work happens right there.
                try await source.forEachBlock { block in
                    guard !show.hasFailed else { return false }
                    do {
                        return try show.handle { loop, actions in loop.handle(block, &actions) }
                    } catch {
                        show.fail(error)
                        return false
                    }
                }
            } onCancel: { [inbox] in
                inbox.finish()
            }
        } catch {
            failure = error
        }
        // The input is over (ended, limited, cancelled or failed): stop, and for a recording, fade out. The last
        // frames go to sinks that may wait (a recorder's full queue, a slow reader of stdout): on a thread of their own.
        do {
            try await DedicatedThread.complete(name: "ls-show-end") { try show.handle { loop, actions in loop.finish(&actions) } }
        } catch {
            show.fail(error)
        }
        if let failure = show.failure ?? failure { throw failure }
    }
}

/// The engine's state behind a lock, shared by the audio (reader thread) and the listener task, the actions it
/// decided that wait to be performed, and the first error either of them met.
///
/// Whoever finds nobody performing takes the turn and performs every waiting action, its own and those others
/// add meanwhile, outside the lock; the others return at once. Actions are performed one at a time, in the order
/// they were decided.
private final class LockedShow<C: Clock>: Sendable where C.Duration == Duration {
    private struct Shared {
        var loop: ShowLoop<C>
        var waiting: [ShowLoop<C>.Action] = []
        /// The emptied batch of the last turn, kept for its capacity: a block costs no allocation.
        var spare: [ShowLoop<C>.Action] = []
        var performing = false

        /// The waiting actions, with the spare batch waiting in their place.
        mutating func takeWaiting() -> [ShowLoop<C>.Action] {
            let taken = waiting
            waiting = spare
            spare = []
            return taken
        }
    }

    private let state: Mutex<Shared>
    private let actions: ShowActions<C>
    private let firstError = Mutex<(any Error)?>(nil)
    /// Set with `firstError`: every block checks it, and a load costs no lock and no copy of the error.
    private let failed = Atomic<Bool>(false)

    init(_ loop: sending ShowLoop<C>, actions: ShowActions<C>) {
        state = Mutex(Shared(loop: loop))
        self.actions = actions
    }

    /// Runs `body` on the locked loop, then performs what it decided (unless another thread is performing, which
    /// then does); returns what `body` returned (whether the loop wants more audio).
    @discardableResult
    func handle<R: Sendable>(_ body: (inout ShowLoop<C>, inout [ShowLoop<C>.Action]) -> R) throws -> R {
        let (result, batch) = state.withLock { shared -> (R, [ShowLoop<C>.Action]?) in
            let result = body(&shared.loop, &shared.waiting)
            guard !shared.performing, !shared.waiting.isEmpty else { return (result, nil) }
            shared.performing = true
            return (result, shared.takeWaiting())
        }
        if let batch { try perform(batch) }
        return result
    }

    /// Performs `batch`, then what was decided meanwhile, until nothing waits: two turns of the lock per batch.
    private func perform(_ batch: [ShowLoop<C>.Action]) throws {
        var batch = batch
        do {
            while true {
                for action in batch { try actions.perform(action) }
                batch.removeAll(keepingCapacity: true)
                let emptied = batch
                batch = state.withLock { shared in
                    guard !shared.waiting.isEmpty else {
                        shared.performing = false
                        shared.spare = emptied
                        return []
                    }
                    shared.spare = emptied
                    return shared.takeWaiting()
                }
                if batch.isEmpty { return }
            }
        } catch {
            // The show ends with this error; what was left of the turn is dropped with it.
            state.withLock { shared in
                shared.waiting.removeAll(keepingCapacity: true)
                shared.performing = false
            }
            throw error
        }
    }

    func fail(_ error: any Error) {
        firstError.withLock { if $0 == nil { $0 = error } }
        failed.store(true, ordering: .releasing)
    }

    var failure: (any Error)? { firstError.withLock { $0 } }
    var hasFailed: Bool { failed.load(ordering: .acquiring) }
}
