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
    public let source: any AudioSource
    private let configuration: Configuration
    private let framesPerSecond: Double
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
        framesPerSecond: Double,
        player: (any NowPlayingSource)? = nil,
        logger: Logger = Logger(label: "lightshow.engine"),
        makeAnalyzer: @escaping @Sendable () -> any BlockAnalyzer
    ) {
        self.source = source
        self.configuration = configuration
        self.framesPerSecond = framesPerSecond
        self.player = player
        self.logger = logger
        self.makeAnalyzer = makeAnalyzer
        (events, inbox) = AsyncStream.makeStream(of: ShowEvent.self)
        currentStatus = Mutex(ShowStatus(
            state: .stopped, reason: .initial, title: source.spec.defaultTitle, playerConnected: false
        ))
    }

    /// An engine analysing with `LevelAnalyzer` at `framesPerSecond`, with the bands and settings of `configuration`.
    public convenience init(
        source: any AudioSource,
        configuration: Configuration,
        framesPerSecond: Double,
        player: (any NowPlayingSource)? = nil,
        logger: Logger = Logger(label: "lightshow.engine")
    ) {
        let sampleRate = source.sampleRate
        self.init(
            source: source, configuration: configuration, framesPerSecond: framesPerSecond, player: player, logger: logger
        ) { [analysis = configuration.analysis, bands = configuration.bands] in
            LevelAnalyzer(settings: analysis, bands: bands, sampleRate: sampleRate, framesPerSecond: framesPerSecond)
        }
    }

    /// The state, its reason and the title right now.
    public var status: ShowStatus { currentStatus.withLock { $0 } }

    /// A user's play/pause/toggle/stop (keys, `ctl`). Safe from any task or thread.
    public func send(_ command: UserCommand) {
        inbox.yield(.user(command))
    }

    /// A reloaded configuration: band ranges and analysis settings apply from the next hop, without touching
    /// the source. Safe from any task or thread.
    public func reconfigure(_ configuration: Configuration) {
        inbox.yield(.reconfigure(configuration))
    }

    /// Runs the show, handing each frame to `onFrame`. Returns when the input ends; throws when it fails for good
    /// or `onFrame` throws. Call once.
    ///
    /// Audio is handled where the source delivers it (a live source's own reader thread), with the engine's state
    /// locked, so a block costs no extra wake-up; commands, the player and timers take the same lock. `onFrame` is
    /// called under that lock, never twice at once. `afterFrames` follows each block or event that produced
    /// frames, so a sink that only wants the newest (a viewer) can act once per batch rather than per frame.
    public func run(onFrame: @escaping FrameOutput, afterFrames: @escaping @Sendable () -> Void = {}) async throws {
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
        let report: (ShowStatus) -> Void = { status in self.currentStatus.withLock { $0 = status } }
        let analyzer = makeAnalyzer()
        if source.isLive {
            try await drive(ShowLoop(
                clock: ContinuousClock(), followAudio: nil, analyzer: analyzer, spec: source.spec,
                configuration: configuration, framesPerSecond: framesPerSecond,
                inbox: inbox, player: player, logger: logger, report: report
            ), onFrame: onFrame, afterFrames: afterFrames)
        } else {
            let clock = ManualClock()
            try await drive(ShowLoop(
                clock: clock, followAudio: { clock.advance(to: .init(offset: .seconds($0))) },
                analyzer: analyzer, spec: source.spec,
                configuration: configuration, framesPerSecond: framesPerSecond,
                inbox: inbox, player: player, logger: logger, report: report
            ), onFrame: onFrame, afterFrames: afterFrames)
        }
    }

    private func drive<C>(
        _ loop: sending ShowLoop<C>, onFrame: @escaping FrameOutput, afterFrames: @escaping @Sendable () -> Void
    ) async throws {
        let show = LockedShow(loop, afterFrames: afterFrames)
        show.state.withLock { $0.begin() }
        // Commands, the player and timers, on a task of their own.
        let listener = Task { [events] in
            for await event in events {
                do {
                    try show.handle { try $0.handle(event, onFrame) }
                } catch {
                    show.fail(error)
                    return
                }
            }
        }
        defer {
            listener.cancel()
            show.state.withLock { $0.finish() }
        }
        try await withTaskCancellationHandler {
            // A file delivers in the calling task, at the pace the analysis takes; a live source on its thread.
            try await source.forEachBlock { block in
                guard !show.hasFailed else { return false }
                do {
                    try show.handle { try $0.handle(block, onFrame) }
                    return true
                } catch {
                    show.fail(error)
                    return false
                }
            }
        } onCancel: { [inbox] in
            inbox.finish()
        }
        if let failure = show.failure { throw failure }
    }
}

/// The engine's state behind a lock, shared by the audio (reader thread) and the listener task, and the first
/// error either of them met.
private final class LockedShow<C: Clock>: Sendable where C.Duration == Duration {
    let state: Mutex<ShowLoop<C>>
    private let firstError = Mutex<(any Error)?>(nil)
    private let afterFrames: @Sendable () -> Void

    init(_ loop: sending ShowLoop<C>, afterFrames: @escaping @Sendable () -> Void) {
        state = Mutex(loop)
        self.afterFrames = afterFrames
    }

    /// Runs `body` on the locked loop, then `afterFrames` if it produced any.
    func handle(_ body: (inout ShowLoop<C>) throws -> Void) throws {
        let produced = try state.withLock { loop in
            let before = loop.emittedFrames
            try body(&loop)
            return loop.emittedFrames != before
        }
        if produced { afterFrames() }
    }

    func fail(_ error: any Error) {
        firstError.withLock { if $0 == nil { $0 = error } }
    }

    var failure: (any Error)? { firstError.withLock { $0 } }
    var hasFailed: Bool { failure != nil }
}
