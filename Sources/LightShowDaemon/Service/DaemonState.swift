public import LightShowAudio
public import LightShowCore
public import LightShowEngine
import Synchronization

/// What the daemon's tasks share: the running configuration, the capture in progress and the newest frame.
/// Every field sits behind its own lock, held only to read or swap a value.
public final class DaemonState: Sendable {
    /// The input being captured right now, if any.
    struct Capture {
        var source: (any AudioSource)?
        var engine: ShowEngine?
        /// Why the input is not open, while the retry loop runs.
        var openError: String?
        /// The engine's run, cancelled when a reload names another input.
        var run: Task<Void, any Error>?
        var restartRequested = false
        /// The supervisor's wait between attempts, ended early by a restart request.
        var wait: Task<Void, Never>?
    }

    private let current: Mutex<Configuration>
    let capture = Mutex(Capture())
    private let latest = Mutex<ShowFrame?>(nil)
    /// Told when something STATUS= shows may have changed: the configuration, the input opening or failing, and
    /// (passed on from them) the open input's health and the engine's state.
    let changes = Announcer()

    init(configuration: Configuration) {
        current = Mutex(configuration)
    }

    public var configuration: Configuration { current.withLock { $0 } }

    /// Swaps in a new configuration and returns the one it replaced.
    func replaceConfiguration(with configuration: Configuration) -> Configuration {
        defer { changes.announce() }
        return current.withLock { old in
            defer { old = configuration }
            return old
        }
    }

    /// Changes the capture record, then tells `changes`.
    func updateCapture<Result: Sendable>(_ body: (inout sending Capture) -> sending Result) -> Result {
        defer { changes.announce() }
        return capture.withLock(body)
    }

    /// Makes `engine`, built from `configuration`, the capture in progress. A reload or `set-band` that came while
    /// the input was opening (a Pulse server can take seconds) found no engine to tell: it catches up here.
    func publish(source: any AudioSource, engine: ShowEngine, run: Task<Void, any Error>, builtFrom configuration: Configuration) {
        updateCapture { capture in
            capture.source = source
            capture.engine = engine
            capture.openError = nil
            capture.run = run
            if capture.restartRequested { run.cancel() }
            let current = self.configuration
            if current != configuration { engine.reconfigure(current) }
        }
    }

    /// Hands the running configuration to the engine, if one runs. Under the capture lock, as `publish` is: of two
    /// that race, the later one sends the newer configuration.
    func reconfigureEngine() {
        capture.withLock { capture in capture.engine?.reconfigure(configuration) }
    }

    /// Passes the changes of `source` and `engine` on to `changes`, while they are the capture in progress.
    func relayChanges(of source: any AudioSource, _ engine: ShowEngine) {
        let relay: @Sendable () -> Void = { [changes] in changes.announce() }
        source.statisticsChanges?.listen(relay)
        engine.statusChanges.listen(relay)
    }

    func stopRelayingChanges(of source: any AudioSource, _ engine: ShowEngine) {
        source.statisticsChanges?.listen(nil)
        engine.statusChanges.listen(nil)
    }

    public var latestFrame: ShowFrame? { latest.withLock { $0 } }

    func record(_ frame: ShowFrame) {
        latest.withLock { $0 = frame }
    }

    public var engine: ShowEngine? { capture.withLock { $0.engine } }
    public var source: (any AudioSource)? { capture.withLock { $0.source } }
    public var openError: String? { capture.withLock { $0.openError } }

    /// The capture's health for status: the open source's, or `lost` while the retry loop runs.
    public var captureStatistics: CaptureStatistics {
        if let source { return source.statistics }
        var waiting = CaptureStatistics()
        waiting.state = .lost
        return waiting
    }

    /// What the watchdog judges: the capture's health, including the reader loop's pulse. Waiting counts as
    /// alive: the retry loop with no source open (restarting the daemon would not bring a device back), and a fifo
    /// whose writer is absent or silent (MPD paused), whose reader still goes round.
    public var watchdogStatistics: CaptureStatistics { captureStatistics }

    /// Closes the current input and opens the configured one again (after a reload changed `[input]`).
    func restartCapture() {
        let (run, wait) = capture.withLock { capture in
            capture.restartRequested = true
            return (capture.run, capture.wait)
        }
        run?.cancel()
        wait?.cancel()
    }

    /// True (once) when a restart was asked for since the last call.
    func takeRestartRequest() -> Bool {
        capture.withLock { capture in
            defer { capture.restartRequested = false }
            return capture.restartRequested
        }
    }
}
