import LightShowAnalysis
public import LightShowAudio
public import LightShowCore
public import Logging
import Synchronization

/// Joins an audio source, the analyser, the playback-state machine, user commands and MPD into the frames every
/// sink draws.
///
/// While the show is stopped and dark on a live input, analysis and rendering sleep: each captured block gets
/// only a cheap level check until sound (or a command) wakes the show, and no timer runs.
public final class ShowEngine: Sendable {
    public let source: any AudioSource
    private let configuration: Configuration
    private let framesPerSecond: Double
    private let mpd: MPDClient?
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
        mpd: MPDClient? = nil,
        logger: Logger = Logger(label: "lightshow.engine"),
        makeAnalyzer: @escaping @Sendable () -> any BlockAnalyzer
    ) {
        self.source = source
        self.configuration = configuration
        self.framesPerSecond = framesPerSecond
        self.mpd = mpd
        self.logger = logger
        self.makeAnalyzer = makeAnalyzer
        (events, inbox) = AsyncStream.makeStream(of: ShowEvent.self)
        currentStatus = Mutex(ShowStatus(
            state: .stopped, reason: .initial, title: source.spec.defaultTitle, mpdConnected: false
        ))
    }

    /// An engine analysing with `LevelAnalyzer` at `framesPerSecond`, with the bands and settings of `configuration`.
    public convenience init(
        source: any AudioSource,
        configuration: Configuration,
        framesPerSecond: Double,
        mpd: MPDClient? = nil,
        logger: Logger = Logger(label: "lightshow.engine")
    ) {
        let sampleRate = source.sampleRate
        self.init(
            source: source, configuration: configuration, framesPerSecond: framesPerSecond, mpd: mpd, logger: logger
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

    /// Runs the show, handing each frame to `onFrame` (which may take its time: the engine waits for it).
    /// Returns when the input ends; throws when it fails for good. Call once.
    public func run(onFrame: (ShowFrame) async throws -> Void) async throws {
        guard !hasRun.exchange(true, ordering: .relaxed) else {
            throw LightShowError("the show engine runs only once", exitStatus: .usage)
        }
        // A few blocks in flight: enough to ride out scheduling, little enough that a file waits for analysis.
        let credits = BlockCredits(limit: 4)
        let reader = Task { [source, inbox] in
            do {
                for try await block in source.blocks() {
                    await credits.acquire()
                    if Task.isCancelled { break }
                    inbox.yield(.block(block))
                }
                inbox.yield(.inputEnded)
            } catch {
                inbox.yield(.inputFailed(error))
            }
        }
        let follower = mpd.map { client in
            client.start()
            return Task { [inbox] in
                for await event in client.events { inbox.yield(.mpd(event)) }
            }
        }
        defer {
            reader.cancel()
            follower?.cancel()
            mpd?.stop()
            credits.close()
        }

        let report: (ShowStatus) -> Void = { status in self.currentStatus.withLock { $0 = status } }
        let analyzer = makeAnalyzer()
        try await withTaskCancellationHandler {
            if source.isLive {
                var loop = ShowLoop(
                    clock: ContinuousClock(), followAudio: nil, analyzer: analyzer, spec: source.spec,
                    configuration: configuration, framesPerSecond: framesPerSecond,
                    inbox: inbox, logger: logger, report: report
                )
                try await loop.run(events: events, credits: credits, onFrame: onFrame)
            } else {
                let clock = ManualClock()
                var loop = ShowLoop(
                    clock: clock, followAudio: { clock.advance(to: .init(offset: .seconds($0))) },
                    analyzer: analyzer, spec: source.spec,
                    configuration: configuration, framesPerSecond: framesPerSecond,
                    inbox: inbox, logger: logger, report: report
                )
                try await loop.run(events: events, credits: credits, onFrame: onFrame)
            }
        } onCancel: { [inbox] in
            inbox.finish()
        }
    }
}
