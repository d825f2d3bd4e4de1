@testable import LightShowAnalysis
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

@Suite struct HalvingFilterTests {
    /// `signal` through the filter in pieces of `piece` samples, as the onset detector feeds it.
    static func halve(_ signal: [Float], piece: Int) -> [Float] {
        let filter = HalvingFilter(longestPiece: 128)
        var full = SampleHistory(capacity: 1024), half = SampleHistory(capacity: 512)
        var output: [Float] = []
        var start = 0
        signal.withUnsafeBufferPointer { all in
            while start < all.count {
                let end = min(all.count, start + piece)
                full.append(UnsafeBufferPointer(rebasing: all[start..<end]))
                filter.follow(full, appended: end - start, into: &half)
                // Each piece leaves (end / 2 − start / 2) new outputs at the newest end of `half`.
                let made = end / 2 - start / 2
                half.withNewest(made) { output += UnsafeBufferPointer(start: $0, count: made) }
                start = end
            }
        }
        return output
    }

    static func rms(_ samples: ArraySlice<Float>) -> Double {
        (samples.reduce(0) { $0 + Double($1 * $1) } / Double(samples.count)).squareRoot()
    }

    @Test func oneOutputPerPairWhateverThePieces() {
        let signal = Signals.noise(dbfs: -10, seconds: 0.1, sampleRate: 44_100)
        let reference = Self.halve(signal, piece: 128)
        #expect(reference.count == signal.count / 2)
        for piece in [1, 2, 3, 77, 127] { #expect(Self.halve(signal, piece: piece) == reference, "piece \(piece)") }
    }

    @Test func theMidPassesAndWhatWouldFoldOntoItIsSuppressed() {
        // 1 kHz keeps its level within 0.2 dB (cos⁶ droops 0.13 dB there); 18 kHz, which would fold onto the
        // default mid's top (22 050 − 18 000 = 4050 Hz), is ≥ 60 dB down.
        let mid = Signals.sine(frequency: 1000, seconds: 0.5, sampleRate: 44_100, amplitude: 0.5)
        let passed = Self.halve(mid, piece: 128)
        #expect(abs(20 * log10(Self.rms(passed[100...]) / Self.rms(mid[400...]))) < 0.2)
        let alias = Signals.sine(frequency: 18_000, seconds: 0.5, sampleRate: 44_100, amplitude: 0.5)
        let folded = Self.halve(alias, piece: 128)
        let attenuation = 20 * log10(Self.rms(folded[100...]) / Self.rms(alias[400...]))
        #expect(attenuation < -60, "alias only \(attenuation) dB down")
    }
}
