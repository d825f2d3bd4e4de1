public import LightShowCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Sample blocks in, one `AnalysisFrame` per hop out.
///
/// Downmixes each block, keeps the newest samples, and at every hop boundary of a `HopSchedule`
/// measures the band energies (`BandEnergyMeter`) and runs them through the `LevelProcessor`. With accents on,
/// the `OnsetDetector` reads the same samples on its own finer hop, and the `AccentProcessor` lifts each light on
/// its band's onsets. FFTW plans are made once, here in `init`. One owner thread; not Sendable.
public final class LevelAnalyzer {
    public let sampleRate: Int
    public let framesPerSecond: Double
    public let windowPlan: WindowPlan
    private let schedule: HopSchedule
    let meter: BandEnergyMeter
    /// Nil unless an output asked for the spectrum summary (`summarizeSpectrum`).
    var spectrumSummarizer: SpectrumSummarizer?
    /// The newest mono samples, which the meter and the detector both read: written once, one copy to find in
    /// memory on each wake-up.
    private var history: SampleHistory
    private var processor: LevelProcessor
    private var settings: AnalysisSettings
    private var pendingBands: BandsSettings?
    private var bands: BandsSettings
    /// With the bands' colours, what the accents' flash limit judges a flash by.
    private var background: BackgroundSettings
    /// Nil with accents off: no detection runs, and the levels are the envelope's.
    private var detector: OnsetDetector?
    private var accents: AccentProcessor
    /// Onsets decided since the last frame.
    private var pendingOnsets: [Onset] = []

    private var mono: [Float] = []
    private var energies: [Double] = []
    /// Samples taken in so far.
    private var consumed: Int64 = 0
    /// Next hop to emit (hop 0 is the start of the input).
    private var nextHop: Int64 = 1
    /// Timeline position of the first sample, from the first block's `startFrame`.
    private var origin: Int64?
    /// Σ x² and count since the last hop, for the silence gate's RMS.
    private var hopSquares: Double = 0
    private var hopCount = 0

    public convenience init(
        settings: AnalysisSettings, bands: BandsSettings, accents: AccentSettings = AccentSettings(),
        background: BackgroundSettings = BackgroundSettings(), sampleRate: Int, framesPerSecond: Double
    ) {
        self.init(
            settings: settings, bands: bands, accents: accents, background: background, sampleRate: sampleRate,
            framesPerSecond: framesPerSecond, windowPlan: WindowPlan(sampleRate: sampleRate)
        )
    }

    public init(
        settings: AnalysisSettings, bands: BandsSettings, accents: AccentSettings = AccentSettings(),
        background: BackgroundSettings = BackgroundSettings(), sampleRate: Int, framesPerSecond: Double,
        windowPlan: WindowPlan
    ) {
        self.sampleRate = max(1, sampleRate)
        self.framesPerSecond = framesPerSecond > 0 ? framesPerSecond : 60
        self.windowPlan = windowPlan
        schedule = HopSchedule(sampleRate: self.sampleRate, framesPerSecond: self.framesPerSecond)
        meter = BandEnergyMeter(plan: windowPlan, sampleRate: self.sampleRate, bands: bands)
        history = SampleHistory(
            capacity: max(meter.fullRateSpan, OnsetDetector.windowLength(sampleRate: self.sampleRate))
        )
        processor = LevelProcessor(settings: settings)
        self.settings = settings
        self.bands = bands
        self.background = background
        self.accents = AccentProcessor(settings: accents, contrasts: FlashContrast.perBand(bands, background: background))
        energies.reserveCapacity(Band.allCases.count)
        pendingOnsets.reserveCapacity(16)
        updateAccents(accents)
    }

    /// New accent settings (a config reload), from the next hop. Turning accents on starts the detector afresh.
    public func updateAccents(_ settings: AccentSettings) {
        guard settings.enabled else {
            detector = nil
            pendingOnsets.removeAll(keepingCapacity: true)
            accents = AccentProcessor(settings: settings, contrasts: accents.contrasts)
            return
        }
        if let detector {
            detector.setAccents(settings, silenceThresholdDBFS: self.settings.silenceThresholdDBFS)
        } else {
            detector = OnsetDetector(
                sampleRate: sampleRate, bands: bands, accents: settings, silenceThresholdDBFS: self.settings.silenceThresholdDBFS
            )
        }
        if settings != accents.settings { accents = AccentProcessor(settings: settings, contrasts: accents.contrasts) }
    }

    /// New band ranges; they take effect at the next hop (live tuning).
    public func updateBands(_ bands: BandsSettings) {
        pendingBands = bands
        self.bands = bands
        accents.setContrasts(FlashContrast.perBand(bands, background: background))
    }

    /// A new background (a config reload): it changes which of the accents' lifts are flashes.
    public func updateBackground(_ background: BackgroundSettings) {
        guard background != self.background else { return }
        self.background = background
        accents.setContrasts(FlashContrast.perBand(bands, background: background))
    }

    /// New analysis settings (a config reload). The gain, gate and envelopes start over with them, so this
    /// does nothing when they are unchanged.
    public func updateSettings(_ settings: AnalysisSettings) {
        guard settings != self.settings else { return }
        self.settings = settings
        processor = LevelProcessor(settings: settings)
        detector?.setAccents(accents.settings, silenceThresholdDBFS: settings.silenceThresholdDBFS)
    }

    /// Takes one block and returns the frames whose hop boundaries it completed (often none or one).
    public func process(_ block: SampleBlock) -> [AnalysisFrame] {
        if origin == nil { origin = block.startFrame }
        block.downmix(into: &mono)
        var frames: [AnalysisFrame] = []
        let blockEnd = consumed + Int64(mono.count)
        mono.withUnsafeBufferPointer { samples in
            var offset = 0
            while offset < samples.count {
                let boundary = schedule.boundary(nextHop)
                let take = Int(min(Int64(samples.count - offset), boundary - consumed))
                let chunk = UnsafeBufferPointer(rebasing: samples[offset..<(offset + take)])
                meter.append(chunk)
                appendToHistory(chunk)
                hopSquares += Double(Self.sumOfSquares(chunk))
                hopCount += take
                offset += take
                consumed += Int64(take)
                if consumed == boundary {
                    frames.append(summarized(hop(boundary: boundary, block: block, blockEnd: blockEnd)))
                }
            }
        }
        return frames
    }

    /// Appends to the history in pieces that end on the detector's hops, each read by the detector as it lands.
    private func appendToHistory(_ chunk: UnsafeBufferPointer<Float>) {
        guard let detector else { return history.append(chunk) }
        var start = 0
        while start < chunk.count {
            let count = min(chunk.count - start, detector.samplesUntilHop)
            history.append(UnsafeBufferPointer(rebasing: chunk[start..<(start + count)]))
            let first = (origin ?? 0) + consumed + Int64(start)
            detector.take(count, of: history, firstSample: first, into: &pendingOnsets)
            start += count
        }
    }

    /// Whether `frames` more input frames reach the next hop boundary.
    public func completesHop(frames: Int) -> Bool {
        consumed + Int64(frames) >= schedule.boundary(nextHop)
    }

    /// Σ x² with eight float lanes (a plain loop can't be vectorized: float addition order is fixed).
    static func sumOfSquares(_ samples: UnsafeBufferPointer<Float>) -> Float {
        var lanes = SIMD8<Float>()
        let whole = samples.count / 8 * 8
        var index = 0
        while index < whole {
            let vector = SIMD8<Float>(samples[index..<(index + 8)])
            lanes += vector * vector
            index += 8
        }
        var sum = lanes.sum()
        while index < samples.count {
            sum += samples[index] * samples[index]
            index += 1
        }
        return sum
    }

    private func hop(boundary: Int64, block: SampleBlock, blockEnd: Int64) -> AnalysisFrame {
        if let bands = pendingBands {
            meter.setBands(bands)
            detector?.setBands(bands)
            pendingBands = nil
        }
        let previous = schedule.boundary(nextHop - 1)
        let dt = Double(boundary - previous) / Double(sampleRate)
        let rms = hopCount > 0 ? sqrt(hopSquares / Double(hopCount)) : 0
        hopSquares = 0
        hopCount = 0
        nextHop += 1

        meter.measure(fullRate: history, into: &energies)
        let rmsDBFS = Decibels.fromAmplitude(rms)
        let result = processor.process(meanSquares: energies, rmsDBFS: rmsDBFS, dt: dt)
        let time = Double((origin ?? 0) + boundary) / Double(sampleRate)
        var levels = result.levels
        var envelope = result.levels
        var accent = BandLevels.zero
        var onsets: [Onset] = []
        if detector != nil {
            // Onsets while the gate is closed light nothing and aren't reported.
            if result.hasSound, !pendingOnsets.isEmpty { onsets = pendingOnsets }
            (envelope, accent, levels) = accents.process(
                envelope: result.levels, onsets: onsets, time: time, gateOpen: result.hasSound
            )
            // Only when there were some: emptying an array whose buffer the frame shares allocates a new one.
            if !pendingOnsets.isEmpty { pendingOnsets.removeAll(keepingCapacity: true) }
        }
        // The block's capture time is its newest sample's; a hop ending earlier in the block was captured earlier.
        let capture = block.captureTimeNanoseconds.map { newest -> UInt64 in
            let earlier = UInt64(Double(blockEnd - boundary) * 1e9 / Double(sampleRate))
            return newest >= earlier ? newest - earlier : 0
        }
        return AnalysisFrame(
            time: time,
            levels: levels,
            envelope: envelope,
            accent: accent,
            onsets: onsets,
            hasSound: result.hasSound,
            rmsDBFS: Float(rmsDBFS),
            captureTimeNanoseconds: capture
        )
    }
}
