import LightShowSystem
import LightShowCore

/// Thread-safe holder of a source's `CaptureStatistics`: the reader thread updates, anyone reads a snapshot.
final class StatisticsRecorder: Sendable {
    private struct Shared {
        var statistics = CaptureStatistics()
        /// What `changes` last heard of, to tell only differences.
        var told: CaptureStatistics.Reported?
    }

    private let shared = Locked(Shared())
    /// Told, on the reader thread, when what status shows changes: the state, a fault counter, the first pulse,
    /// and the input turning silent (seen at the reader's pulse) or sounding again. Not for every block, and
    /// with no timer of its own.
    let changes = Announcer()

    var snapshot: CaptureStatistics { shared.withLock { $0.statistics } }

    func update(_ body: (inout CaptureStatistics) -> Void) {
        record(at: MonotonicClock.now(), body)
    }

    /// Records that the reader loop went round at `now` (the watchdog's pulse), then stops here for ever if the
    /// test hook `LIGHTSHOW_TEST_STALL_CAPTURE_AFTER` says so, as a reader stuck in a system call would.
    func alive(at now: UInt64 = MonotonicClock.now()) {
        record(at: now) { $0.lastAliveNanoseconds = now }
        CaptureStallHook.checkpoint(now: now)
    }

    /// Records `frames` of real audio arriving at `now`.
    func progressed(frames: Int, at now: UInt64 = MonotonicClock.now()) {
        record(at: now) { statistics in
            statistics.framesDelivered += Int64(frames)
            statistics.lastProgressNanoseconds = now
            if statistics.state == .starting || statistics.state == .lost { statistics.state = .running }
        }
    }

    /// Applies `body`, then tells `changes` if what status shows at `now` differs from what it last heard.
    private func record(at now: UInt64, _ body: (inout CaptureStatistics) -> Void) {
        let changed = shared.withLock { shared in
            body(&shared.statistics)
            let reported = shared.statistics.reported(at: now)
            defer { shared.told = reported }
            return reported != shared.told
        }
        if changed { changes.announce() }
    }
}
