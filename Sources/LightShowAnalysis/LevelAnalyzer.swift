public import LightShowCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Sample blocks in, one `AnalysisFrame` per hop out.
///
/// Downmixes each block and keeps the newest samples. The `OnsetDetector` reads them on its own fine hop (128
/// samples at 44.1/48 kHz, whatever the frame rate), and on each of its hops the band energies of its short windows,
/// scaled to the band meter's split (`BandPowerTrack`), run through the `LevelProcessor`. At every hop boundary of a
/// `HopSchedule` (a frame) the band meter (`BandEnergyMeter`) measures the long window, which sets the scales for
/// the hops to come, and the frame takes the levels of the last hop; with accents on, the `AccentProcessor` lifts
/// each light on its band's onsets. FFTW plans are made once, here in `init`. One owner thread; not Sendable.
public final class LevelAnalyzer {
    /// How far ahead of its envelope each level is shown: one 60 fps frame, as when the envelope was stepped once a
    /// 60 fps frame (`LevelProcessor`).
    static let lead = 1.0 / 60
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
    /// Runs with accents on or off: its short windows time the levels. With accents off its onsets are dropped, and
    /// the levels are the envelope's.
    private let detector: OnsetDetector
    private var accentsOn = false
    /// The detector's band powers of the last hops, which put the meter's energies on time.
    private var track: BandPowerTrack
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
    /// The level chain's output on the detector's last hop, and the band energies it was given.
    private var hopResult: (levels: BandLevels, hasSound: Bool) = (.zero, false)
    private var hopEnergies: [Double] = []
    /// Σ x² and count since the last frame, for the frame's RMS.
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
        processor = LevelProcessor(settings: settings, lead: Self.lead)
        detector = OnsetDetector(
            sampleRate: self.sampleRate, bands: bands, accents: accents,
            silenceThresholdDBFS: settings.silenceThresholdDBFS
        )
        track = BandPowerTrack(longSpan: windowPlan.longSize, shortSpan: windowPlan.shortSize, hop: detector.hop)
        self.settings = settings
        self.bands = bands
        self.background = background
        self.accents = AccentProcessor(settings: accents, contrasts: FlashContrast.perBand(bands, background: background))
        energies.reserveCapacity(Band.allCases.count)
        hopEnergies.reserveCapacity(Band.allCases.count)
        pendingOnsets.reserveCapacity(16)
        updateAccents(accents)
    }

    /// New accent settings (a config reload), from the next hop.
    public func updateAccents(_ settings: AccentSettings) {
        accentsOn = settings.enabled
        guard settings.enabled else {
            pendingOnsets.removeAll(keepingCapacity: true)
            accents = AccentProcessor(settings: settings, contrasts: accents.contrasts)
            return
        }
        detector.setAccents(settings, silenceThresholdDBFS: self.settings.silenceThresholdDBFS)
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
        processor = LevelProcessor(settings: settings, lead: Self.lead)
        detector.setAccents(accents.settings, silenceThresholdDBFS: settings.silenceThresholdDBFS)
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
        var start = 0
        while start < chunk.count {
            let count = min(chunk.count - start, detector.samplesUntilHop)
            history.append(UnsafeBufferPointer(rebasing: chunk[start..<(start + count)]))
            let first = (origin ?? 0) + consumed + Int64(start)
            if detector.take(count, of: history, firstSample: first, into: &pendingOnsets) { stepLevels() }
            start += count
        }
    }

    /// One detector hop through the level chain.
    private func stepLevels() {
        track.push(detector.bandPowers, own: detector.ownBandPowers, longBands: ~detector.shortBands & 0b111)
        track.energies(into: &hopEnergies)
        hopResult = processor.process(
            meanSquares: hopEnergies, rmsDBFS: Decibels.fromPower(detector.hopMeanSquare),
            dt: Double(detector.hop) / Double(sampleRate)
        )
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
            detector.setBands(bands)
            track.bandsChanged()
            pendingBands = nil
        }
        let rms = hopCount > 0 ? sqrt(hopSquares / Double(hopCount)) : 0
        hopSquares = 0
        hopCount = 0
        nextHop += 1

        meter.measure(fullRate: history, into: &energies)
        track.rescale(energies, longShares: meter.longShares)
        let rmsDBFS = Decibels.fromAmplitude(rms)
        let result = hopResult
        let time = Double((origin ?? 0) + boundary) / Double(sampleRate)
        var levels = result.levels
        var envelope = result.levels
        var accent = BandLevels.zero
        var onsets: [Onset] = []
        if accentsOn {
            // Onsets while the gate is closed light nothing and aren't reported.
            if result.hasSound, !pendingOnsets.isEmpty { onsets = pendingOnsets }
            (envelope, accent, levels) = accents.process(
                envelope: result.levels, onsets: onsets, time: time, gateOpen: result.hasSound,
                sound: processor.targets
            )
            // Only when there were some: emptying an array whose buffer the frame shares allocates a new one.
            if !pendingOnsets.isEmpty { pendingOnsets.removeAll(keepingCapacity: true) }
        } else if !pendingOnsets.isEmpty {
            pendingOnsets.removeAll(keepingCapacity: true)
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
