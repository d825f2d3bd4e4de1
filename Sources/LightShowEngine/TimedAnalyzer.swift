import LightShowCore
import LightShowSystem

/// An analyser that times its inner one for `EngineMetrics`: two clock reads per block, no allocation. A block that
/// completes no hop (one held for the block that does) adds its time to the next hop's.
final class TimedAnalyzer: BlockAnalyzer {
    private let inner: any BlockAnalyzer
    private let hops: DurationHistogram
    private var pendingNanoseconds: UInt64 = 0

    init(_ inner: any BlockAnalyzer, hops: DurationHistogram) {
        self.inner = inner
        self.hops = hops
    }

    func process(_ block: SampleBlock) -> [AnalysisFrame] {
        let start = MonotonicClock.now()
        let frames = inner.process(block)
        pendingNanoseconds &+= MonotonicClock.now() &- start
        guard !frames.isEmpty else { return frames }
        let share = pendingNanoseconds / UInt64(frames.count)
        for _ in frames { hops.record(nanoseconds: share) }
        pendingNanoseconds = 0
        return frames
    }

    func completesHop(frames: Int) -> Bool {
        inner.completesHop(frames: frames)
    }

    func reconfigure(_ configuration: Configuration) {
        inner.reconfigure(configuration)
    }
}
