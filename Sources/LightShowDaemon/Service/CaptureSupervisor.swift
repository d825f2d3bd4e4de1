import LightShowAudio
import LightShowCore
import LightShowEngine
import LightShowNowPlaying
import Logging
import Synchronization

/// Keeps the configured input captured and the show running on it, until cancelled.
///
/// An input that won't open, or fails for good, is retried with backoff (the daemon stays up: a USB device may
/// come back). One that ends is reopened after a pause (a fifo whose writer went away), except a file, which
/// waits for a reload naming another input. A reload that changes `[input]` restarts the capture at once.
struct CaptureSupervisor: Sendable {
    let state: DaemonState
    let framesPerSecond: Double
    let logger: Logger
    /// Where every engine's frames go: status keeping, subscribers, lights. They outlive each capture.
    let sinks: [any ShowSink]

    /// Runs until cancelled; `started` is called once, after the first attempt to open the input
    /// (successful or not: either capture is open or the retry loop has begun).
    func run(started: @escaping @Sendable () -> Void) async {
        var backoff = ReopenBackoff(initial: 0.5, maximum: 10)
        var notifyStarted: (@Sendable () -> Void)? = started
        while !Task.isCancelled {
            _ = state.takeRestartRequest()
            let configuration = state.configuration
            let outcome = await runOnce(configuration) {
                notifyStarted?()
                notifyStarted = nil
            }
            if Task.isCancelled { return }
            if state.takeRestartRequest() {
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

    private func runOnce(_ configuration: Configuration, opened: () -> Void) async -> Outcome {
        let spec = configuration.input.source
        let source: any AudioSource
        do {
            source = try AudioSources.open(spec, pcmFormat: configuration.input.pcmFormat, pacing: .natural, waitsForServer: true)
        } catch {
            let message = (error as? any UserFacingError)?.description ?? "\(error)"
            logger.warning("\(message); retrying")
            state.updateCapture { $0.openError = message }
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
            source: source, configuration: configuration, options: .init(framesPerSecond: framesPerSecond), player: player
        )
        // Relayed before the engine runs, so its first change of state is heard.
        state.relayChanges(of: source, engine)
        defer { state.stopRelayingChanges(of: source, engine) }
        let run = Task { [sinks] in try await engine.run(sinks) }
        state.publish(source: source, engine: engine, run: run, builtFrom: configuration)
        logger.info("capturing \(spec) at \(source.sampleRate) Hz, \(source.channels) channels")
        opened()
        let result = await withTaskCancellationHandler { await run.result } onCancel: { run.cancel() }
        state.updateCapture { capture in
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
            state.updateCapture { $0.openError = message }
            return .failed
        }
    }

    /// Waits up to `seconds`, returning early on cancellation or a restart request; nothing polls meanwhile (after a
    /// file ends the daemon may wait here for good).
    private func waitForRestart(seconds: Double) async {
        let wait = Task { _ = try? await Task.sleep(for: .seconds(min(seconds, 1e9))) }
        let requested = state.capture.withLock { capture in
            capture.wait = wait
            return capture.restartRequested
        }
        if requested { wait.cancel() }
        await withTaskCancellationHandler { await wait.value } onCancel: { wait.cancel() }
        state.capture.withLock { $0.wait = nil }
    }
}
