import Synchronization

/// Durations counted into fixed buckets, recorded from a real-time thread (the audio reader) and read by a scrape
/// on another: relaxed atomics only, no lock and no allocation per observation.
public final class DurationHistogram: Sendable {
    /// Each bucket's upper bound, seconds (as written) and nanoseconds (as compared), ascending.
    private let upperBounds: [Double]
    private let bounds: [UInt64]
    /// One counter per bound, and one for the durations above them all.
    private let counts: [Counter]
    private let sumNanoseconds = Atomic<UInt64>(0)

    private final class Counter: Sendable {
        let value = Atomic<UInt64>(0)
    }

    /// `upperBounds` in seconds, ascending.
    public init(upperBounds: [Double]) {
        precondition(zip(upperBounds, upperBounds.dropFirst()).allSatisfy { $0 < $1 }, "bounds must ascend")
        precondition(upperBounds.allSatisfy { $0 > 0 && $0 < 1e9 }, "bounds are positive seconds")
        self.upperBounds = upperBounds
        bounds = upperBounds.map { UInt64(($0 * 1e9).rounded()) }
        counts = (0...upperBounds.count).map { _ in Counter() }
    }

    public func record(nanoseconds: UInt64) {
        // A dozen bounds: a linear scan beats a search.
        var index = 0
        while index < bounds.count && nanoseconds > bounds[index] { index += 1 }
        counts[index].value.wrappingAdd(1, ordering: .relaxed)
        sumNanoseconds.wrappingAdd(nanoseconds, ordering: .relaxed)
    }

    /// The counts so far, in seconds. Observations recorded meanwhile may show in a bucket and not yet in the sum.
    public var snapshot: HistogramSnapshot {
        HistogramSnapshot(
            upperBounds: upperBounds,
            bucketCounts: counts.map { $0.value.load(ordering: .relaxed) },
            sum: Double(sumNanoseconds.load(ordering: .relaxed)) / 1e9
        )
    }
}
