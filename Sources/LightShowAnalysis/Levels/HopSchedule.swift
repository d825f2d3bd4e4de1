/// Where analysis hops fall on the sample timeline: hop `k` ends at sample `⌊k · sampleRate / framesPerSecond⌋`.
/// Computing each boundary from `k` (not by adding a rounded hop) keeps fractional hops exact,
/// so N seconds of audio give exactly N·fps hops at any rate.
public struct HopSchedule: Equatable, Sendable {
    public let sampleRate: Int
    public let framesPerSecond: Double

    public init(sampleRate: Int, framesPerSecond: Double) {
        precondition(sampleRate > 0 && framesPerSecond > 0, "rates must be positive")
        self.sampleRate = sampleRate
        self.framesPerSecond = framesPerSecond
    }

    /// Sample index (counted from the start of the input) where hop `index` ends; hop 0 ends at sample 0.
    public func boundary(_ index: Int64) -> Int64 {
        // Integral fps (the usual case) stays in exact integer arithmetic.
        if framesPerSecond.rounded() == framesPerSecond, framesPerSecond < 1e9 {
            return index * Int64(sampleRate) / Int64(framesPerSecond)
        }
        return Int64((Double(index) * Double(sampleRate) / framesPerSecond).rounded(.down))
    }

    /// Audio time (seconds) of hop `index`'s end.
    public func time(_ index: Int64) -> Double {
        Double(boundary(index)) / Double(sampleRate)
    }

    /// Nominal hop length in samples (may be fractional).
    public var samplesPerHop: Double { Double(sampleRate) / framesPerSecond }
}
