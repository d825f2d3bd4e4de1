import LightShowSystem
import LightShowCore

/// Thread-safe holder of a source's `CaptureStatistics`: the reader thread updates, anyone reads a snapshot.
final class StatisticsRecorder: Sendable {
    private let value = Locked(CaptureStatistics())
    /// Told when what status shows changes (state, fault counters, the first pulse, audio after a silence), on the
    /// reader thread; not for every block.
    let changes = Announcer()

    var snapshot: CaptureStatistics { value.current }

    func update(_ body: (inout CaptureStatistics) -> Void) {
        let changed = value.withLock { statistics in
            let before = statistics.reported
            body(&statistics)
            return statistics.reported != before
        }
        if changed { changes.announce() }
    }

    /// Records that the reader loop went round at `now` (the watchdog's pulse), then stops here for ever if the
    /// test hook `LIGHTSHOW_TEST_STALL_CAPTURE_AFTER` says so, as a reader stuck in a system call would.
    func alive(at now: UInt64 = MonotonicClock.now()) {
        update { $0.lastAliveNanoseconds = now }
        CaptureStallHook.checkpoint(now: now)
    }

    /// Records `frames` of real audio arriving at `now`.
    func progressed(frames: Int, at now: UInt64 = MonotonicClock.now()) {
        let changed = value.withLock { statistics in
            let before = statistics.reported
            let wasSilent = statistics.silentFrom.map { now >= $0 } ?? true
            statistics.framesDelivered += Int64(frames)
            statistics.lastProgressNanoseconds = now
            if statistics.state == .starting || statistics.state == .lost { statistics.state = .running }
            return wasSilent || statistics.reported != before
        }
        if changed { changes.announce() }
    }
}
