@testable import LightShowAnalysis
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The packed transform gives FFTW's real transform's power in every bin asked, and leaves the others alone.
@Suite struct PackedRealFFTTests {
    /// A deterministic mix of tones and a click, so every bin has something in it.
    func signal(_ size: Int) -> [Float] {
        (0..<size).map { n in
            let t = Float(n)
            return 0.5 * sin(0.37 * t) + 0.25 * cos(1.9 * t + 0.3) + (n == size / 3 ? 0.8 : 0) + Float(n % 7) * 0.01
        }
    }

    @Test(arguments: [16, 256, 1024])
    func everyBinMatchesTheRealTransform(size: Int) {
        let samples = signal(size)
        let real = RealFFT(size: size)
        let packed = PackedRealFFT(size: size)
        #expect(packed.binCount == real.binCount)
        for n in 0..<size {
            real.input[n] = samples[n]
            packed.input[n] = samples[n]
        }
        real.execute()
        packed.execute()
        var power = [Float](repeating: -1, count: packed.binCount)
        power.withUnsafeMutableBufferPointer { packed.power(bins: 0..<packed.binCount, into: $0.baseAddress!) }
        let largest = (0..<real.binCount).map(real.power).max()!
        for bin in 0..<real.binCount {
            #expect(abs(power[bin] - real.power(bin)) <= 1e-5 * largest, "bin \(bin): \(power[bin]) vs \(real.power(bin))")
        }
    }

    @Test func onlyTheBinsAskedAreWritten() {
        let packed = PackedRealFFT(size: 64)
        for (n, value) in signal(64).enumerated() { packed.input[n] = value }
        packed.execute()
        var power = [Float](repeating: -1, count: packed.binCount)
        power.withUnsafeMutableBufferPointer { packed.power(bins: 5..<9, into: $0.baseAddress!) }
        for bin in 0..<packed.binCount {
            #expect((power[bin] == -1) == !(5..<9).contains(bin), "bin \(bin): \(power[bin])")
        }
    }
}
