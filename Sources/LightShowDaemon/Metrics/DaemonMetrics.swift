public import LightShowEngine
import Synchronization

/// The counts the daemon keeps only for its metrics: the engines' (frames, analysis time, latency) and the
/// reloads'. Everything else `/metrics` shows is read where it is already kept (`DaemonMetricsReport`).
public final class DaemonMetrics: Sendable {
    /// Shared by every engine the daemon runs, so its counters survive an input reopening.
    public let engine = EngineMetrics()
    private let reloadsApplied = Atomic<UInt64>(0)
    private let reloadsFailed = Atomic<UInt64>(0)
    public init() {}

    func reloaded(ok: Bool) {
        if ok {
            reloadsApplied.wrappingAdd(1, ordering: .relaxed)
        } else {
            reloadsFailed.wrappingAdd(1, ordering: .relaxed)
        }
    }

    public var reloads: (ok: UInt64, failed: UInt64) {
        (reloadsApplied.load(ordering: .relaxed), reloadsFailed.load(ordering: .relaxed))
    }
}
