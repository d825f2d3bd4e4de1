import LightShowSystem
import LightShowCore

/// Thread-safe holder of a source's `CaptureStatistics`: the reader thread updates, anyone reads a snapshot.
final class StatisticsRecorder: Sendable {
    private let value = Locked(CaptureStatistics())

    var snapshot: CaptureStatistics { value.current }

    func update(_ body: (inout CaptureStatistics) -> Void) {
        value.withLock { body(&$0) }
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
