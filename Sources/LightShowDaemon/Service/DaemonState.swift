import LightShowAudio
public import LightShowCore
import LightShowEngine
import Synchronization

/// What the daemon's tasks share: the running configuration and the newest frame, each behind its own lock held
/// only to read or swap a value. The capture in progress is `CaptureSupervisor`'s.
public final class DaemonState: Sendable {
    private let current: Mutex<Configuration>
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
}
