/// A histogram's buckets at one moment, as `PrometheusText` writes them.
public struct HistogramSnapshot: Sendable, Equatable {
    /// Each bucket's upper bound (inclusive), ascending, in the unit the histogram is named for.
    public var upperBounds: [Double]
    /// Observations per bucket, not cumulative: one per bound, then one for those above every bound.
    public var bucketCounts: [UInt64]
    /// The sum of every observation.
    public var sum: Double

    public init(upperBounds: [Double], bucketCounts: [UInt64], sum: Double) {
        precondition(bucketCounts.count == upperBounds.count + 1, "one count per bound and one above them")
        self.upperBounds = upperBounds
        self.bucketCounts = bucketCounts
        self.sum = sum
    }

    /// Every observation.
    public var count: UInt64 { bucketCounts.reduce(0, &+) }
}
