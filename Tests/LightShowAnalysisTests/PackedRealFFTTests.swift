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
        expectPower(of: packed, spacing: 1, matches: real)
    }

    /// Every bin of `packed.power(spacing:)` against FFTW's real transform `real`, within 1e-5 of its largest.
    func expectPower(of packed: PackedRealFFT, spacing: Int, matches real: RealFFT) {
        var power = [Float](repeating: -1, count: real.binCount)
        power.withUnsafeMutableBufferPointer {
            packed.power(bins: 0..<real.binCount, spacing: spacing, into: $0.baseAddress!)
        }
        let largest = (0..<real.binCount).map(real.power).max()!
        for bin in 0..<real.binCount {
            #expect(abs(power[bin] - real.power(bin)) <= 1e-5 * largest, "bin \(bin): \(power[bin]) vs \(real.power(bin))")
        }
    }

    /// A window zero-padded to twice its length: every second bin is the window's own transform's.
    @Test(arguments: [32, 128, 512])
    func aZeroPaddedWindowMatchesItsOwnTransform(size: Int) {
        let samples = signal(size)
        let own = RealFFT(size: size)
        let padded = PackedRealFFT(size: 2 * size)
        for n in 0..<size {
            own.input[n] = samples[n]
            padded.input[n] = samples[n]
            padded.input[size + n] = 0
        }
        own.execute()
        padded.execute()
        expectPower(of: padded, spacing: 2, matches: own)
    }

    @Test func onlyTheBinsAskedAreWritten() {
        let packed = PackedRealFFT(size: 64)
        for (n, value) in signal(64).enumerated() { packed.input[n] = value }
        packed.execute()
        var power = [Float](repeating: -1, count: packed.binCount)
        power.withUnsafeMutableBufferPointer { packed.power(bins: 5..<9, spacing: 1, into: $0.baseAddress!) }
        for bin in 0..<packed.binCount {
            #expect((power[bin] == -1) == !(5..<9).contains(bin), "bin \(bin): \(power[bin])")
        }
    }
}
