@testable import LightShowAnalysis
import LightShowCore
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The spectrum step on its own: energies in signal units, whatever window a frequency is measured with.
@Suite struct BandEnergyMeterTests {
    static func energies(of signal: [Float], sampleRate: Int, bands: BandsSettings = BandsSettings()) -> [Double] {
        let plan = WindowPlan(sampleRate: sampleRate)
        let meter = BandEnergyMeter(plan: plan, sampleRate: sampleRate, bands: bands)
        var history = SampleHistory(capacity: meter.fullRateSpan)
        signal.withUnsafeBufferPointer {
            meter.append($0)
            history.append($0)
        }
        var energies: [Double] = []
        meter.measure(fullRate: history, into: &energies)
        return energies
    }

    @Test(arguments: [(60.0, 0), (300, 1), (1000, 1), (3000, 1), (9000, 2)])
    func aSineReadsAsItsMeanSquareInItsBand(frequency: Double, bandIndex: Int) {
        // Short window below the split, long window above it: both must give A²/2 for a sine of peak A.
        let amplitude = 0.4
        let tone = Signals.sine(frequency: frequency, seconds: 0.2, sampleRate: 48_000, amplitude: amplitude)
        let energies = Self.energies(of: tone, sampleRate: 48_000)
        let expected = amplitude * amplitude / 2
        #expect(abs(energies[bandIndex] / expected - 1) < 0.05, "\(frequency) Hz: \(energies[bandIndex]) vs \(expected)")
    }

    @Test func whiteNoiseSplitsInProportionToBandwidth() {
        // White noise has equal power per hertz: each band gets its share of the total mean square.
        let rms = 0.1
        let noise = Signals.noise(dbfs: 20 * log10(rms), seconds: 0.2, sampleRate: 48_000)
        let energies = Self.energies(of: noise, sampleRate: 48_000)
        for (band, energy) in zip(Band.allCases, energies) {
            let range = FrequencyRange.defaultRange(for: band)
            let share = rms * rms * (range.upper - range.lower) / 24_000
            // One window of noise fluctuates; a factor of 1.5 either way still tells the bands apart.
            #expect(energy > share / 1.5 && energy < share * 1.5, "\(band): \(energy) vs \(share)")
        }
    }

    @Test func aPartialEdgeBinCountsPartly() {
        // A tone exactly on a bin centre, with the band edge moved across that bin: the energy follows the
        // fraction of the bin inside the band, smoothly rather than all-or-nothing.
        let rate = 48_000
        let binWidth = Double(rate) / 1024
        let centre = 40 * binWidth  // 1875 Hz, in the short window's range
        let tone = Signals.sine(frequency: centre, seconds: 0.1, sampleRate: rate, amplitude: 0.5)
        func midEnergy(lowerEdge: Double) -> Double {
            var bands = BandsSettings()
            bands.mid.range = FrequencyRange(lower: lowerEdge, upper: 4000)
            return Self.energies(of: tone, sampleRate: rate, bands: bands)[1]
        }
        let whole = midEnergy(lowerEdge: centre - 3 * binWidth)
        let half = midEnergy(lowerEdge: centre)
        let none = midEnergy(lowerEdge: centre + 3 * binWidth)
        // The Hann main lobe puts ~⅓ of the bin's neighbours' share on each side; the centre bin holds the rest.
        #expect(half > whole * 0.3 && half < whole * 0.7, "half \(half) of \(whole)")
        #expect(none < whole * 0.001)
    }
}

@Suite struct LevelAnalyzerRobustnessTests {
    @Test func blockSizeDoesNotChangeTheFrames() {
        var signal = Signals.sine(frequency: 80, seconds: 0.5, sampleRate: 44_100, amplitude: 0.5)
        signal += Signals.noise(dbfs: -20, seconds: 0.5, sampleRate: 44_100)
        signal += Signals.silence(seconds: 0.5, sampleRate: 44_100)
        let reference = AnalyzerHarness.frames(signal, sampleRate: 44_100, blockSize: 4096)
        for blockSize in [1, 64, 735, 10_000, signal.count] {
            let frames = AnalyzerHarness.frames(signal, sampleRate: 44_100, blockSize: blockSize)
            // Same hops and the same levels; only float rounding of the hop RMS may differ with the chunking.
            #expect(frames.map(\.time) == reference.map(\.time), "block size \(blockSize)")
            #expect(frames.map(\.hasSound) == reference.map(\.hasSound), "block size \(blockSize)")
            let worst = zip(frames, reference).map { a, b in
                Band.allCases.map { abs(a.levels[$0] - b.levels[$0]) }.max() ?? 0
            }.max() ?? 1
            #expect(worst < 1e-4, "block size \(blockSize): levels differ by \(worst)")
        }
        #expect(reference.count == 90)
    }

    @Test func analyzersCanBeMadeAndDroppedOnManyThreadsAtOnce() async {
        // Plan creation and destruction go through FFTW's planner, which is not thread-safe; the lock makes it so.
        await withTaskGroup(of: Int.self) { group in
            for index in 0..<16 {
                group.addTask {
                    let rate = index.isMultiple(of: 2) ? 44_100 : 48_000
                    let analyzer = LevelAnalyzer(settings: AnalysisSettings(), bands: BandsSettings(), sampleRate: rate, framesPerSecond: 60)
                    let tone = Signals.sine(frequency: 1000, seconds: 0.5, sampleRate: rate)
                    return AnalyzerHarness.frames(tone, analyzer: analyzer).count
                }
            }
            for await count in group { #expect(count == 30) }
        }
    }
}
