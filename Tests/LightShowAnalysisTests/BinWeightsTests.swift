import LightShowAnalysis
import Testing

@Suite struct BinWeightsTests {
    @Test func edgeBinsCountByTheFractionInside() {
        // Bins of 10 Hz: bin k covers (k−½)·10 … (k+½)·10.
        let weights = BinWeights(lower: 22.5, upper: 51, binWidth: 10, binCount: 100)
        #expect(weights.firstBin == 2)
        // Bin 2 covers 15…25 → 2.5 inside; bins 3, 4 whole; bin 5 covers 45…55 → 6 inside.
        #expect(weights.weights.count == 4)
        #expect(abs(weights.weights[0] - 0.25) < 1e-6)
        #expect(weights.weights[1] == 1 && weights.weights[2] == 1)
        #expect(abs(weights.weights[3] - 0.6) < 1e-6)
        #expect(abs(weights.totalWeight - 2.85) < 1e-5)
    }

    @Test func weightsAddUpToTheRangeWidth() {
        for (lower, upper) in [(20.0, 250.0), (250, 4000), (4000, 16000), (33.3, 33.9)] {
            let weights = BinWeights(lower: lower, upper: upper, binWidth: 48_000 / 1024, binCount: 513)
            #expect(abs(Double(weights.totalWeight) - (upper - lower) / (48_000 / 1024)) < 1e-3)
        }
    }

    @Test func adjacentBandsShareAnEdgeBinWithoutDoubleCounting() {
        let width = 44_100.0 / 4096
        let below = BinWeights(lower: 20, upper: 250, binWidth: width, binCount: 2049)
        let above = BinWeights(lower: 250, upper: 500, binWidth: width, binCount: 2049)
        let shared = below.bins.upperBound - 1
        #expect(above.firstBin == shared)
        #expect(abs(below.weights.last! + above.weights.first! - 1) < 1e-5)
    }

    @Test func emptyAndOutOfRangeGiveNoBins() {
        #expect(BinWeights(lower: 100, upper: 100, binWidth: 10, binCount: 100).isEmpty)
        #expect(BinWeights(lower: 30_000, upper: 40_000, binWidth: 10, binCount: 100).isEmpty)
    }
}
