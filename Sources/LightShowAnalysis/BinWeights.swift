/// Which FFT bins make up a frequency range, and how much of each.
/// Bin `k` covers `(k ± ½)·binWidth`; a bin at a band edge counts by the fraction of it inside the range,
/// so moving an edge changes the energy smoothly instead of in whole-bin steps.
public struct BinWeights: Equatable, Sendable {
    public let firstBin: Int
    /// Weight of bins `firstBin, firstBin+1, …`, each in (0, 1].
    public let weights: [Float]

    public init(lower: Double, upper: Double, binWidth: Double, binCount: Int) {
        precondition(binWidth > 0 && binCount > 0, "need a positive bin width and at least one bin")
        var first = 0
        var weights: [Float] = []
        if upper > lower {
            let lowBin = max(0, Int((lower / binWidth + 0.5).rounded(.down)))
            let highBin = min(binCount - 1, Int((upper / binWidth + 0.5).rounded(.down)))
            if lowBin <= highBin {
                for bin in lowBin...highBin {
                    let start = (Double(bin) - 0.5) * binWidth
                    let end = (Double(bin) + 0.5) * binWidth
                    let inside = min(upper, end) - max(lower, start)
                    let weight = Float(inside / binWidth)
                    if weight <= 0 {
                        if weights.isEmpty { continue } else { break }
                    }
                    if weights.isEmpty { first = bin }
                    weights.append(min(1, weight))
                }
            }
        }
        firstBin = first
        self.weights = weights
    }

    /// Explicit bins and weights (used to fold constant factors into the weights).
    public init(firstBin: Int, weights: [Float]) {
        self.firstBin = firstBin
        self.weights = weights
    }

    public var isEmpty: Bool { weights.isEmpty }

    /// Bins covered, including partial ones.
    public var bins: Range<Int> { firstBin..<(firstBin + weights.count) }

    /// Total weight (the range's width in bins).
    public var totalWeight: Float { weights.reduce(0, +) }
}
