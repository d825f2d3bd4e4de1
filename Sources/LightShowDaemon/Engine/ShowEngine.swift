import LightShowAnalysis
public import LightShowAudio
public import LightShowCore
public import Logging
import Synchronization

/// Joins an audio source, the analyser, the playback-state machine, user commands and MPD into the frames every
/// sink draws.
///
/// Each block is handled where it arrives: on the source's reader thread for a live input, with the show's state
/// behind a lock that commands, MPD events and timers take too. While the show is stopped and dark on a live
/// input, analysis and rendering sleep: each captured block gets only a cheap level check until sound (or a
/// command) wakes the show, and no timer runs.
public final class ShowEngine: Sendable {
    public let source: any AudioSource
    private let configuration: Configuration
    private let framesPerSecond: Double
    private let mpd: MPDClient?
    private let logger: Logger
    private let makeAnalyzer: @Sendable () -> any BlockAnalyzer
    /// Where commands and reloads go: the running show's driver, or a queue until it starts.
    private let inbox = Mutex(Inbox())
    private let currentStatus: Mutex<ShowStatus>
    private let hasRun = Atomic<Bool>(false)

    /// - Parameter makeAnalyzer: builds the analyser for `source` (called once, when `run` starts).
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
        deliver(.user(command))
    }

    /// A reloaded configuration: band ranges and analysis settings apply from the next hop, without touching
    /// the source. Safe from any task or thread.
    public func reconfigure(_ configuration: Configuration) {
        deliver(.reconfigure(configuration))
    }

    /// Runs the show, handing each frame to `onFrame` as soon as it is made, on the thread that made it (the
    /// source's reader, or a timer's task), one frame at a time; the engine waits for it, so it should be quick.
    /// Returns when the input ends or the task is cancelled; throws when the input fails for good, or what
    /// `onFrame` throws (which ends the show). Call once.
    public func run(onFrame: @escaping @Sendable (ShowFrame) throws -> Void) async throws {
        guard !hasRun.exchange(true, ordering: .relaxed) else {
            throw LightShowError("the show engine runs only once", exitStatus: .usage)
        }
        let report: (ShowStatus) -> Void = { status in self.currentStatus.withLock { $0 = status } }
        let analyzer = makeAnalyzer()
        if source.isLive {
            try await drive(ShowLoop(
                clock: ContinuousClock(), followAudio: nil, analyzer: analyzer, spec: source.spec,
                configuration: configuration, framesPerSecond: framesPerSecond,
                logger: logger, report: report, onFrame: onFrame
            ))
        } else {
            let clock = ManualClock()
            try await drive(ShowLoop(
                clock: clock, followAudio: { clock.advance(to: .init(offset: .seconds($0))) },
                analyzer: analyzer, spec: source.spec, configuration: configuration, framesPerSecond: framesPerSecond,
                logger: logger, report: report, onFrame: onFrame
            ))
        }
    }

    private func drive<C: Clock>(_ loop: sending ShowLoop<C>) async throws where C.Duration == Duration {
        let driver = ShowDriver(loop)
        // Blocks are handled inside the source's own loop: on its reader thread for a live input. A file's
        // reader waits on a few blocks (the source's channel), so it is never read far ahead of analysis.
        let reading = Task { [source] in
            try await source.forEachBlock { block in driver.step(.block(block)) }
        }
        driver.onFailure { reading.cancel() }
        inbox.withLock { inbox in
            inbox.driver = { driver.step($0) }
            for event in inbox.pending { driver.step(event) }
            inbox.pending = []
        }
        let follower = mpd.map { client in
            client.start()
            return Task {
                for await event in client.events {
                    guard driver.step(.mpd(event)) else { break }
                }
            }
        }
        defer {
            inbox.withLock { $0 = Inbox(isClosed: true) }
            follower?.cancel()
            mpd?.stop()
        }

        let result = await withTaskCancellationHandler {
            await reading.result
        } onCancel: {
            reading.cancel()
        }
        if let failure = driver.failure {
            driver.finish(inputEnded: false)
            throw failure
        }
        if Task.isCancelled {
            driver.finish(inputEnded: false)
            return
        }
        do {
            try result.get()
        } catch {
            driver.finish(inputEnded: false)
            throw error
        }
        driver.finish(inputEnded: true)
    }

    private func deliver(_ event: ShowEvent) {
        let driver = inbox.withLock { inbox -> (@Sendable (ShowEvent) -> Bool)? in
            if inbox.driver == nil && !inbox.isClosed { inbox.pending.append(event) }
            return inbox.driver
        }
        _ = driver?(event)
    }
}

/// Events that arrive before the show starts wait here; once it runs, they go straight to its driver.
private struct Inbox {
    var driver: (@Sendable (ShowEvent) -> Bool)?
    var pending: [ShowEvent] = []
    var isClosed = false
}
