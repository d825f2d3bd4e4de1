import LightShowCore
import LightShowEngine
import Testing

@Suite struct DurationHistogramTests {
    /// A duration counts in the first bucket whose bound it doesn't exceed (bounds are inclusive); above them all
    /// it counts in the last. The sum is in seconds.
    @Test func durationsLandInTheirBuckets() {
        let histogram = DurationHistogram(upperBounds: [0.001, 0.01])
        for nanoseconds: UInt64 in [0, 1_000_000, 1_000_001, 10_000_000, 10_000_001, 5_000_000_000] {
            histogram.record(nanoseconds: nanoseconds)
        }
        let snapshot = histogram.snapshot
        #expect(snapshot.upperBounds == [0.001, 0.01])
        #expect(snapshot.bucketCounts == [2, 2, 2])
        #expect(snapshot.count == 6)
        #expect(abs(snapshot.sum - 5.022_000_002) < 1e-9)
    }

    /// Threads recording at once lose no observation.
    @Test func concurrentRecordsAreAllCounted() async {
        let histogram = DurationHistogram(upperBounds: [0.000_001])
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<4 {
                group.addTask {
                    // Two tasks below the bound, two above it.
                    for _ in 0..<10_000 { histogram.record(nanoseconds: task < 2 ? 500 : 2_000) }
                }
            }
        }
        let snapshot = histogram.snapshot
        #expect(snapshot.count == 40_000)
        #expect(snapshot.bucketCounts[0] == 20_000)
    }
}
