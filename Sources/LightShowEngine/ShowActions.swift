import LightShowAudio
import LightShowCore
import LightShowNowPlaying
import LightShowSystem
import Logging
import Synchronization

/// Performs what the show loop decided, outside the engine's lock: the sinks, the one timer, the player, the
/// status, the reader's pace, the log, the metrics.
final class ShowActions<C: Clock>: Sendable where C.Duration == Duration {
    private let output: SinkFanOut
    private let clock: C
    private let inbox: AsyncStream<ShowEvent>.Continuation
    private let player: (any NowPlayingSource)?
    private let pace: ReaderPace?
    private let metrics: EngineMetrics?
    private let logger: Logger
    private let report: @Sendable (ShowStatus) -> Void
    /// The armed timer's task. Only the thread whose turn it is to perform touches it.
    private let timer = Mutex<Task<Void, Never>?>(nil)

    init(
        output: SinkFanOut, clock: C, inbox: AsyncStream<ShowEvent>.Continuation, player: (any NowPlayingSource)?,
        pace: ReaderPace?, metrics: EngineMetrics?, logger: Logger, report: @escaping @Sendable (ShowStatus) -> Void
    ) {
        self.output = output
        self.clock = clock
        self.inbox = inbox
        self.player = player
        self.pace = pace
        self.metrics = metrics
        self.logger = logger
        self.report = report
    }

    deinit {
        timer.withLock { $0?.cancel() }
    }

    /// Performs `action`; throws what a sink threw.
    func perform(_ action: ShowLoop<C>.Action) throws {
        switch action {
        case .audio(let block):
            try output.audio(block)
        case .frame(let frame, let capturedAt):
            metrics?.frameEmitted(capturedAt: capturedAt, now: MonotonicClock.now())
            try output.show(frame)
        case .framesDone:
            output.framesDone()
        case .armTimer(let deadline):
            let (clock, inbox) = (clock, inbox)
            let task = Task {
                do {
                    try await clock.sleep(until: deadline, tolerance: nil)
                    inbox.yield(.timer)
                } catch {}
            }
            let previous = timer.withLock { current in
                defer { current = task }
                return current
            }
            previous?.cancel()
        case .cancelTimer:
            timer.withLock { $0.take() }?.cancel()
        case .forward(let command):
            player?.forward(command)
        case .report(let status):
            report(status)
        case .pace(let asleep):
            pace?.set(asleep: asleep)
        case .releaseStartupPages:
            ResidentCode.releaseStartupPages()
        case .log(let message):
            logger.info("\(message)")
        }
    }
}
