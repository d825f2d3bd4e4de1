import LightShowAudio
import LightShowCore
import LightShowEngine
import LightShowNowPlaying
import LightShowSystem
import Logging
import Synchronization

/// Keeps the configured input captured and the show running on it, until cancelled; the one owner of the capture
/// in progress (source, engine, why the input is not open) that status reads.
///
/// An input that won't open, or fails for good, is retried with backoff (the daemon stays up: a USB device may
/// come back). One that ends is reopened after a pause (a fifo whose writer went away), except a file, which
/// waits for a reload naming another input. A reload that changes `[input]` restarts the capture at once.
final class CaptureSupervisor: Sendable {
    /// The input being captured right now, if any.
    private struct Capture {
        var source: (any AudioSource)?
        var engine: ShowEngine?
        /// Why the input is not open, while the retry loop runs.
        var openError: String?
        /// The engine's run, cancelled when a reload names another input.
        var run: Task<Void, any Error>?
        var restartRequested = false
        /// The wait between attempts, ended early by a restart request.
        var wait: Task<Void, Never>?
        /// The newest configuration adopted since the start: an engine built from an older one catches up.
        var tuning: Configuration?
        /// The counters of the inputs already closed.
        var closed = CaptureTotals()
    }

    let state: DaemonState
    let framesPerSecond: Double
    /// Where every engine counts its frames, analysis time and latency.
    let metrics: EngineMetrics
    let logger: Logger
    private let capture = Mutex(Capture())

    init(state: DaemonState, framesPerSecond: Double, metrics: EngineMetrics, logger: Logger) {
        self.state = state
        self.framesPerSecond = framesPerSecond
        self.metrics = metrics
        self.logger = logger
    }

    var engine: ShowEngine? { capture.withLock { $0.engine } }
    var source: (any AudioSource)? { capture.withLock { $0.source } }
    var openError: String? { capture.withLock { $0.openError } }

    /// The capture's health for status: the open source's, or `lost` while the retry loop runs.
    var statistics: CaptureStatistics {
        if let source { return source.statistics }
        var waiting = CaptureStatistics()
        waiting.state = .lost
        return waiting
    }

    /// The capture's counters since the daemon started: the closed inputs' and the open one's.
    var captureTotals: CaptureTotals {
        capture.withLock { capture in
            capture.closed + (capture.source.map { CaptureTotals($0.statistics) } ?? CaptureTotals())
        }
    }

    /// What the watchdog judges: the capture's health, including the reader loop's pulse. Waiting counts as
    /// alive: the retry loop with no source open (restarting the daemon would not bring a device back), and a fifo
    /// whose writer is absent or silent (MPD paused), whose reader still goes round.
    var watchdogStatistics: CaptureStatistics { statistics }

    /// A new configuration is the running one: the engine takes its settings (now, or once it is published if
    /// the input is still opening), or with `restart` the input closes and opens again on it. Of two calls that
    /// race, the later one's configuration is the one the engine ends with.
    func adopt(_ configuration: Configuration, restart: Bool) {
        typealias Runs = (run: Task<Void, any Error>?, wait: Task<Void, Never>?)
        let (run, wait) = update { capture -> Runs in
            capture.tuning = configuration
            guard restart else {
                capture.engine?.reconfigure(configuration)
                return (nil, nil)
            }
            capture.restartRequested = true
            return (capture.run, capture.wait)
        }
        run?.cancel()
        wait?.cancel()
    }

    /// Runs until cancelled; `started` is called once, after the first attempt to open the input
    /// (successful or not: either capture is open or the retry loop has begun).
    func run(sinks: [any ShowSink], started: @escaping @Sendable () -> Void) async {
        var backoff = ReopenBackoff(initial: 0.5, maximum: 10)
        var notifyStarted: (@Sendable () -> Void)? = started
        while !Task.isCancelled {
            _ = takeRestartRequest()
            let configuration = state.configuration
            let outcome = await runOnce(configuration, sinks: sinks) {
                notifyStarted?()
                notifyStarted = nil
            }
            if Task.isCancelled { return }
            if takeRestartRequest() {
                backoff.reset()
                continue
            }
            switch outcome {
            case .ended where !configuration.input.source.isLive:
                logger.info("input \(configuration.input.source) ended; waiting for a reload that names another input")
                await waitForRestart(seconds: .infinity)
            case .ended:
                backoff.reset()
                logger.info("input \(configuration.input.source) ended; opening it again")
                await waitForRestart(seconds: backoff.next())
            case .failed:
                await waitForRestart(seconds: backoff.next())
            }
        }
    }

    private enum Outcome { case ended, failed }

    private func runOnce(_ configuration: Configuration, sinks: [any ShowSink], opened: () -> Void) async -> Outcome {
        let spec = configuration.input.source
        let source: any AudioSource
        // Opening blocks (a sound server is waited for up to 3 s): on a thread of its own, never the pool's.
        let opening: Result<any AudioSource, OpenFailure>
        do {
            opening = try await DedicatedThread.run(name: "ls-open") { () throws(LightShowError) -> Result<any AudioSource, OpenFailure> in
                do {
                    return .success(try AudioSources.open(spec, pcmFormat: configuration.input.pcmFormat, pacing: .natural, waitsForServer: true))
                } catch {
                    return .failure(OpenFailure(message: (error as? any UserFacingError)?.description ?? "\(error)"))
                }
            }
        } catch {
            // Cancelled (the daemon stops, or a reload reopens): what the thread opens is closed when it is dropped.
            if Task.isCancelled { return .ended }
            opening = .failure(OpenFailure(message: error.message))
        }
        switch opening {
        case .success(let opened): source = opened
        case .failure(let failure):
            logger.warning("\(failure.message); retrying")
            update { $0.openError = failure.message }
            opened()
            return .failed
        }
        let player: (any NowPlayingSource)?
        do {
            player = try NowPlayingSources.make(configuration)
        } catch {
            logger.warning("\(error.message); following the audio alone")
            player = nil
        }
        let engine = ShowEngine(
            source: source, configuration: configuration, options: .init(framesPerSecond: framesPerSecond, metrics: metrics), player: player
        )
        // Relayed before the engine runs, so its first change of state is heard.
        state.relayChanges(of: source, engine)
        defer { state.stopRelayingChanges(of: source, engine) }
        let run = Task { try await engine.run(sinks) }
        publish(source: source, engine: engine, run: run, builtFrom: configuration)
        logger.info("capturing \(spec) at \(source.sampleRate) Hz, \(source.channels) channels")
        opened()
        let result = await withTaskCancellationHandler { await run.result } onCancel: { run.cancel() }
        update { capture in
            capture.closed = capture.closed + CaptureTotals(source.statistics)
            capture.source = nil
            capture.engine = nil
            capture.run = nil
        }
        switch result {
        case .success:
            return .ended
        case .failure(let error):
            if Task.isCancelled || error is CancellationError { return .ended }
            let message = (error as? any UserFacingError)?.description ?? "\(error)"
            logger.error("\(message); retrying")
            update { $0.openError = message }
            return .failed
        }
    }

    /// Makes `engine`, built from `configuration`, the capture in progress. A reload or `set-band` that came while
    /// the input was opening (a Pulse server can take seconds) found no engine to tell: it catches up here.
    func publish(source: any AudioSource, engine: ShowEngine, run: Task<Void, any Error>, builtFrom configuration: Configuration) {
        update { capture in
            capture.source = source
            capture.engine = engine
            capture.openError = nil
            capture.run = run
            if capture.restartRequested { run.cancel() }
            if let tuning = capture.tuning, tuning != configuration { engine.reconfigure(tuning) }
        }
    }

    /// Changes the capture record, then tells the state's `changes` (status may show something new).
    private func update<Result: Sendable>(_ body: (inout sending Capture) -> sending Result) -> Result {
        defer { state.changes.announce() }
        return capture.withLock(body)
    }

    /// True (once) when a restart was asked for since the last call.
    private func takeRestartRequest() -> Bool {
        capture.withLock { capture in
            defer { capture.restartRequested = false }
            return capture.restartRequested
        }
    }

    /// Waits up to `seconds`, returning early on cancellation or a restart request; nothing polls meanwhile (after a
    /// file ends the daemon may wait here for good).
    private func waitForRestart(seconds: Double) async {
        let wait = Task { _ = try? await Task.sleep(for: .seconds(min(seconds, 1e9))) }
        let requested = capture.withLock { capture in
            capture.wait = wait
            return capture.restartRequested
        }
        if requested { wait.cancel() }
        await withTaskCancellationHandler { await wait.value } onCancel: { wait.cancel() }
        capture.withLock { $0.wait = nil }
    }
}

/// Why an input could not be opened, as the log and `ctl status` say it.
private struct OpenFailure: Error {
    let message: String
}
