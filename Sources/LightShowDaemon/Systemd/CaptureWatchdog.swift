public import LightShowAudio
import LightShowCore
import LightShowSystem

/// Sends `WATCHDOG=1` at the interval systemd asked for, but only while the capture loop is alive, so a read that
/// hangs stops the pings and systemd restarts the service. A loop stuck in the engine stops them too: the reader
/// then waits on the full block channel and its pulse stops once audio flows.
public struct CaptureWatchdog: Sendable {
    public let notifier: SystemdNotifier
    public let interval: Duration

    /// Nil when systemd set no watchdog for this process.
    public init?(notifier: SystemdNotifier) {
        guard notifier.isEnabled, let interval = notifier.watchdogInterval else { return nil }
        self.init(notifier: notifier, interval: interval)
    }

    public init(notifier: SystemdNotifier, interval: Duration) {
        self.notifier = notifier
        self.interval = interval
    }

    /// Pings every `interval` while `statistics()` shows progress, until the task is cancelled.
    /// Returns how many pings were sent.
    @discardableResult
    public func run(statistics: @Sendable () -> CaptureStatistics) async -> Int {
        var pings = 0
        while !Task.isCancelled {
            do {
                try await Task.sleep(for: interval)
            } catch {
                break
            }
            if Self.isProgressing(statistics(), now: MonotonicClock.now(), within: interval) {
                // A failed send is not fatal: the next tick tries again, and systemd acts if none arrive.
                if (try? notifier.watchdog()) != nil { pings += 1 }
            }
        }
        return pings
    }

    /// Health, not music: the reader loop went round within the last `within` (it does so several times a second
    /// while a fifo is silent or has no writer, as when MPD is paused), or real audio arrived (sources that report
    /// no pulse), or the source is in its reopen loop after losing the device (that loop runs by itself; killing
    /// the daemon would not bring the device back). A reader blocked in a system call does none of these.
    public static func isProgressing(_ statistics: CaptureStatistics, now: UInt64, within: Duration) -> Bool {
        if statistics.state == .lost { return true }
        let window = within.clampedNanoseconds
        func isRecent(_ time: UInt64?) -> Bool {
            guard let time else { return false }
            return now < time || now - time <= window
        }
        return isRecent(statistics.lastAliveNanoseconds) || isRecent(statistics.lastProgressNanoseconds)
    }
}
