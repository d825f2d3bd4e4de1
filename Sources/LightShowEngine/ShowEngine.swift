import LightShowAnalysis
public import LightShowNowPlaying
public import LightShowAudio
public import LightShowCore
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

        public init(framesPerSecond: Double, audioLimitSeconds: Double? = nil, fadeOutTail: Bool = false) {
            self.framesPerSecond = framesPerSecond
            self.audioLimitSeconds = audioLimitSeconds
            self.fadeOutTail = fadeOutTail
        }
    }

    public let source: any AudioSource
    private let configuration: Configuration
    private let options: Options
    private let player: (any NowPlayingSource)?
    private let logger: Logger
    private let makeAnalyzer: @Sendable () -> any BlockAnalyzer
    private let events: AsyncStream<ShowEvent>
    private let inbox: AsyncStream<ShowEvent>.Continuation
    private let currentStatus: Mutex<ShowStatus>
    private let hasRun = Atomic<Bool>(false)

    /// - Parameter makeAnalyzer: builds the analyser for `source` (called once, on the engine's task).
    public init(
        source: any AudioSource,
        configuration: Configuration,
        options: Options,
        player: (any NowPlayingSource)? = nil,
        logger: Logger = Logger(label: "lightshow.engine"),
        makeAnalyzer: @escaping @Sendable () -> any BlockAnalyzer
    ) {
        self.source = source
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
        logger: Logger = Logger(label: "lightshow.engine")
    ) {
        let sampleRate = source.sampleRate
        let framesPerSecond = options.framesPerSecond
        self.init(
            source: source, configuration: configuration, options: options, player: player, logger: logger
        ) { [analysis = configuration.analysis, bands = configuration.bands] in
            LevelAnalyzer(settings: analysis, bands: bands, sampleRate: sampleRate, framesPerSecond: framesPerSecond)
        }
    }

    /// The state, its reason and the title right now.
    public var status: ShowStatus { currentStatus.withLock { $0 } }
    /// Told when `status` changes, on the thread that changed it (the engine's lock is held: listen briefly).
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
    /// Audio is handled where the source delivers it (a live source's own reader thread, a file's reader), with
    /// the engine's state locked, so a block costs no extra wake-up; commands, the player and timers take the
    /// same lock, so sinks are never called twice at once.
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
        let report: (ShowStatus) -> Void = { status in
            let changed = self.currentStatus.withLock { current in
                defer { current = status }
                return current != status
            }
            if changed { self.statusChanges.announce() }
        }
        let analyzer = makeAnalyzer()
        let output = SinkFanOut(sinks)
        if source.isLive {
            try await drive(ShowLoop(
                clock: ContinuousClock(), followAudio: nil, analyzer: analyzer, spec: source.spec, sampleRate: source.sampleRate,
                configuration: configuration, options: options,
                inbox: inbox, pace: source.pace, player: player, logger: logger, report: report
            ), output)
        } else {
            let clock = ManualClock()
            try await drive(ShowLoop(
                clock: clock, followAudio: { clock.advance(to: .init(offset: .seconds($0))) },
                analyzer: analyzer, spec: source.spec, sampleRate: source.sampleRate,
                configuration: configuration, options: options,
                inbox: inbox, pace: nil, player: player, logger: logger, report: report
            ), output)
        }
    }

    private func drive<C>(_ loop: sending ShowLoop<C>, _ output: SinkFanOut) async throws {
        let show = LockedShow(loop, output: output)
        show.state.withLock { $0.begin() }
        // Commands, the player and timers, on a task of their own.
        let listener = Task { [events] in
            for await event in events {
                do {
                    try show.handle { try $0.handle(event, output); return true }
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
                        return try show.handle { try $0.handle(block, output) }
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
        // The input is over (ended, limited, cancelled or failed): stop, and for a recording, fade out.
        do {
            try show.handle { try $0.finish(output); return true }
        } catch {
            show.fail(error)
        }
        if let failure = show.failure ?? failure { throw failure }
    }
}

/// The engine's state behind a lock, shared by the audio (reader thread) and the listener task, and the first
/// error either of them met.
private final class LockedShow<C: Clock>: Sendable where C.Duration == Duration {
    let state: Mutex<ShowLoop<C>>
    private let firstError = Mutex<(any Error)?>(nil)
    private let output: SinkFanOut

    init(_ loop: sending ShowLoop<C>, output: SinkFanOut) {
        state = Mutex(loop)
        self.output = output
    }

    /// Runs `body` on the locked loop, then tells the sinks a batch is done if it produced frames; returns what
    /// `body` returned (whether the loop wants more audio).
    @discardableResult
    func handle(_ body: (inout ShowLoop<C>) throws -> Bool) throws -> Bool {
        let (result, produced) = try state.withLock { loop in
            let before = loop.emittedFrames
            let result = try body(&loop)
            return (result, loop.emittedFrames != before)
        }
        if produced { output.framesDone() }
        return result
    }

    func fail(_ error: any Error) {
        firstError.withLock { if $0 == nil { $0 = error } }
    }

    var failure: (any Error)? { firstError.withLock { $0 } }
    var hasFailed: Bool { failure != nil }
}
