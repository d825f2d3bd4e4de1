import LightShowSystem
import LightShowCore

/// Thread-safe holder of a source's `CaptureStatistics`: the reader thread updates, anyone reads a snapshot.
final class StatisticsRecorder: Sendable {
    private let value = Locked(CaptureStatistics())

    var snapshot: CaptureStatistics { value.current }

    func update(_ body: (inout CaptureStatistics) -> Void) {
        value.withLock { body(&$0) }
    }

    /// Records that the reader loop went round at `now` (the watchdog's pulse), then stops here for ever if the
    /// test hook `LIGHTSHOW_TEST_STALL_CAPTURE_AFTER` says so, as a reader stuck in a system call would.
    func alive(at now: UInt64 = MonotonicClock.now()) {
        update { $0.lastAliveNanoseconds = now }
        CaptureStallHook.checkpoint(now: now)
    }

    /// Records `frames` of real audio arriving at `now`.
    func progressed(frames: Int, at now: UInt64 = MonotonicClock.now()) {
        update {
            $0.framesDelivered += Int64(frames)
            $0.lastProgressNanoseconds = now
            if $0.state == .starting || $0.state == .lost { $0.state = .running }
        }
    }
}
