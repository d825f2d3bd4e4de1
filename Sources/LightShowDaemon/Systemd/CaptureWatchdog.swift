public import LightShowAudio
import LightShowCore
import LightShowSystem

/// Sends `WATCHDOG=1` at the interval systemd asked for, but only while capture makes progress,
/// so a read that hangs stops the pings and systemd restarts the service.
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

    /// Progress means real audio arrived within the last `within`, or the source is in its reopen loop
    /// after losing the device (that loop runs by itself; killing the daemon would not bring the device back).
    public static func isProgressing(_ statistics: CaptureStatistics, now: UInt64, within: Duration) -> Bool {
        if statistics.state == .lost { return true }
        guard let last = statistics.lastProgressNanoseconds else { return false }
        return now < last || now - last <= within.clampedNanoseconds
    }
}
