@testable import LightShowAnalysis
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

@Suite struct DecimatorTests {
    static func decimate(_ signal: [Float], chunk: Int) -> [Float] {
        var decimator = Decimator()
        var output: [Float] = [], piece: [Float] = []
        var start = 0
        while start < signal.count {
            let end = min(signal.count, start + chunk)
            signal[start..<end].withUnsafeBufferPointer { decimator.process($0, into: &piece) }
            output += piece
            start = end
        }
        return output
    }

    static func rms(_ samples: ArraySlice<Float>) -> Double {
        (samples.reduce(0) { $0 + Double($1 * $1) } / Double(samples.count)).squareRoot()
    }

    @Test func oneOutputPerFourInputsWhateverTheChunks() {
        let signal = Signals.noise(dbfs: -10, seconds: 0.1, sampleRate: 44_100)
        let reference = Self.decimate(signal, chunk: signal.count)
        #expect(reference.count == signal.count / 4)
        for chunk in [1, 3, 4, 5, 735, 1000] {
            #expect(Self.decimate(signal, chunk: chunk) == reference, "chunk \(chunk)")
        }
    }

    @Test func bassPassesAndAliasesAreSuppressed() {
        // A 200 Hz sine keeps its level; a tone that would fold onto 300 Hz (44 100/4 − 300 = 10 725 Hz) vanishes.
        let bass = Signals.sine(frequency: 200, seconds: 0.5, sampleRate: 44_100, amplitude: 0.5)
        let passed = Self.decimate(bass, chunk: 512)
        #expect(abs(Self.rms(passed[100...]) / Self.rms(bass[400...]) - 1) < 0.01)
        let alias = Signals.sine(frequency: 10_725, seconds: 0.5, sampleRate: 44_100, amplitude: 0.5)
        let folded = Self.decimate(alias, chunk: 512)
        let attenuation = 20 * log10(Self.rms(folded[100...]) / Self.rms(alias[400...]))
        #expect(attenuation < -60, "alias only \(attenuation) dB down")
    }
}
