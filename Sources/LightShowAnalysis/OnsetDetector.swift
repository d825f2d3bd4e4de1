public import LightShowCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Per-band causal onset detection: SuperFlux (Böck & Widmer 2013, `SpectralFlux`) run online at a fine hop of
/// its own, independent of the frame rate, so the same audio gives the same onsets whatever the rate and however
/// the blocks are cut. It decides on the hop where an onset lands and never looks ahead.
///
/// Two window lengths share one hop: a long window (the power of two of at least 20 ms: 1024 points at 44.1 and
/// 48 kHz) for the bands that reach below `shortWindowLowestHz`, which need its finer bins, and a window a quarter
/// as long for the bands above it, which answer sooner in it.
///
/// An onset is the first hop whose value reaches the threshold (the mean of the past quarter second plus
/// `thresholdDB`, over the band's sensitivity), once the last onset is `minimumGap` back and the long window's RMS
/// is at or above the silence threshold. In the long window, where the window was silent `longPastHops` back (the
/// past the rises are measured against), the RMS must also be `abruptStartDB` over that threshold: over silence the
/// faintest sound fading in rises by many dB in its first milliseconds (a chord fading in over a second made bass
/// onsets at −58 to −55 dBFS), while a sound that starts with a hit is louder at once (a click is at −30 dBFS in
/// its first hop; on `accents.sh` the funk song's notes after its near-silent gaps are at −48 to −40 dBFS). The
/// short window's past is only 6 ms: the fade-ins gave it no onset, and the rule cost it 4 of its 300 hats.
///
/// Figures measured on FluidSynth renders (FluidR3 GM: kick, snare and hats over finger bass and electric piano
/// chords, 120 bpm) and on synthesised vibrato, tremolo and swells, at 48 kHz:
/// - a 1024-point window at a 128-sample hop detects 90–100% of the hits at median delays of 10, 3 and 5 ms
///   (bass, mid, treble); 512 points answer bass 3 ms sooner but find half the bass notes' ripple to be onsets;
///   2048 points are 3–5 ms slower and miss 20–30% of the kicks and hats;
/// - `longPastHops` 4 (11 ms) and a 2 dB threshold: no onset in vibrato (±1 % and ±3 %, 6 Hz), tremolo (80 % deep,
///   6–8 Hz, at 110, 440 and 5000 Hz), a swell, or a held bass line and chords between their notes; 3 dB lost
///   60% of the kicks under the bass line, 1 dB let ripple through.
/// On `accents.sh`'s songs (44.1 kHz, treble above 1723 Hz), the treble band on 256 points with `shortPastHops` 2
/// (5.8 ms) and sensitivity 2 found every hat (F 0.95, against 0.85 on 1024 points) with the median decision 3 ms
/// sooner; 512 points were as accurate but 1 ms slower. Each transform converts and compares only its own bands'
/// bins (`PackedRealFFT` unpacks only those): fed as fast as read, the accents cost 0.29 s of CPU per 600 s of
/// audio, against 0.45 s when FFTW unpacked every bin. The long window on every second hop (with 4 past hops and
/// a 3 dB threshold, as the tremolo and held-bass tests then needed) saved no live CPU beyond the runs' noise,
/// moved the kicks' median delay from 11 to 20 ms and found an onset in `accents.sh`'s tremolo organ.
///
/// The long window runs on the audio at half the rate (`HalvingFilter`) while its bands stay under an eighth of the
/// rate (the default 4 kHz and `accents.sh`'s 1723 Hz do): the same span and bins from a 512-point transform. On
/// `accents.sh`, the same F, lit share and delays; 2 of 635 onsets fewer and 8 a hop later; fed as fast as read, the
/// accents' CPU per second of audio fell from 0.41–0.49 to 0.34–0.35 ms. Live, through a paced fifo, most of what they
/// cost is the first hop after each wake-up, which finds everything cold: 13 µs against 1.7 µs for the hops after
/// it (60 wake-ups a second at 60 fps), whatever the transforms' sizes. The 256-point long transform's first
/// call costs as much as the 512-point one's, and 128-sample hops cost no more than 256-sample ones.
///
/// So the half-rate long window and the short one share one transform, the short window zero-padded to the long
/// one's length, whose every second bin is its own (`PackedRealFFT.power(spacing:)`): one plan, one pair of buffers
/// and one table to find cold instead of two, and the same onsets. With the detector's code and memory evicted from
/// every cache before each 60 fps frame, as live, the accents' cost per frame fell from 17.4 to 15.7 µs; live, side
/// by side on one paced fifo, they added 12.8% to the analysis's CPU, against 14.2% with two transforms and the
/// halving filter and band sums one value at a time.
///
/// While the long window's bands stay under a sixteenth of the rate (cava's 3-bar split at 186 and 1723 Hz does;
/// the default 4 kHz does not), it runs at a quarter of the rate, halved again: the same span and bins from a
/// 256-point transform, which the short window, as long, shares unpadded. Both transforms are half the size. On
/// `accents.sh`, onset F went from 0.855 / 0.792 / 0.949 to 0.852 / 0.788 / 0.949 (aubio: 0.792 / 0.771 / 0.949),
/// with no onset in the sustained tones; with everything evicted before each frame, the accents' cost per frame
/// fell from 13.4–14.0 to 12.1–12.7 µs, and live they added 8.7% and 9.8% to the analysis's CPU in two runs (9.3%
/// and 9.7% before).
public final class OnsetDetector {
    /// The onset function's threshold above its recent mean, dB (see above).
    static let thresholdDB: Float = 2
    /// Hops back whose spectra a bin must rise above, in the long and the short window.
    static let longPastHops = 4
    static let shortPastHops = 2
    /// Hops per long window: 128 samples at 44.1 and 48 kHz, 2.7–2.9 ms.
    static let hopsPerWindow = 8
    /// A band whose lower edge is at or above this is measured in the short window: 1 kHz spans five of its
    /// 172–188 Hz bins.
    static let shortWindowLowestHz = 1000.0
    /// The dB floor (power, `SpectralFlux`) of the bands in the long window other than the lowest. At −90 dB a
    /// chord fading in from silence made a mid onset in its first 11 ms, where every bin rises by many dB over the
    /// silence before it; at −70 dB it made none, and on `accents.sh` mid onset F rose from 0.77 to 0.79. The bass
    /// band keeps −90 dB: at −70 a lone click (0.9 then −0.5, which cancel to 0.4 at low frequencies) stayed under
    /// the floor a hop longer. So does the short window: its hats lost recall at −70 dB (F 0.95 → 0.93).
    static let raisedFloorPower: Float = 1e-7
    /// How far over the silence threshold a sound starting from silence must be to make an onset in the long
    /// window (see above).
    static let abruptStartDB = 10.0
    /// A band's mean bin under this share of the highest bin of a young tone's band above it (per Hz; in the same
    /// window or across the two) is that tone's splatter (`isSplatterFromAbove`); young: at least `youngAbove` of
    /// the band's power new (`SpillGuard`), as in a sound's first few hops. On `accents.sh`, a share of 0.7 and
    /// youth 0.5 took bass onset F from 0.83 to 0.81 (bass notes starting with chords); 0.6 and 0.9 kept 0.83.
    /// Across windows the long window's bands take longer to settle: an 8 kHz sine's treble band was under 0.9
    /// young while the bass band still rose.
    static let belowShare: Float = 0.6
    static let belowShareAcrossWindows: Float = 1e-3
    static let youngAbove: Float = 0.9
    static let youngAboveAcrossWindows: Float = 0.5
    /// A band whose highest bin is this many times its mean holds a tone.
    static let tonalPeak: Float = 3
    /// Length of the threshold's running mean, seconds.
    static let meanSeconds = 0.25
    /// Shortest time between two onsets of one band: faster than sixteenth notes at 180 bpm (83 ms), yet one hit's
    /// ringing does not count twice.
    static let minimumGap = 0.05
    /// The onset function (dB of mean rise) at which strength reaches 1 − 1/e: 3 dB is a clear hit over a bed.
    static let strengthScaleDB: Float = 3

    public let sampleRate: Int
    /// The long window's length, the short one's, and the hop, samples.
    public let size: Int
    public let shortSize: Int
    public let hop: Int
    /// The long window over the audio at a quarter of the rate while its bands stay under a sixteenth of the rate,
    /// at half the rate while they stay under an eighth (`HalvingFilter`), at the full rate for wider bands; the
    /// ones not in use measure nothing.
    private let longQuarterRate: SpectralFlux
    private let longHalfRate: SpectralFlux
    private let longFullRate: SpectralFlux
    /// How far the long window's audio is decimated: 1, 2 or 4.
    private var longDecimation = 1
    /// The short window in the quarter-rate long window's transform, of its own length, or zero-padded in the
    /// half-rate one's; the one not in use measures nothing.
    private let shortUnpadded: SpectralFlux
    private let shortPadded: SpectralFlux
    private var halfRate: SampleHistory
    private var quarterRate: SampleHistory
    private let halving: HalvingFilter
    private let quartering: HalvingFilter
    private var silenceThresholdDBFS: Double
    /// The per-hop state below lives in two allocations the instance owns, not in arrays: live, the first hop of
    /// every wake-up finds it all cold (16 µs against 1.7 µs for the next hops, measured through a paced fifo), so
    /// the fewer places it is fetched from and the fewer runtime checks on the way, the less each wake-up costs.
    private let floats: UnsafeMutablePointer<Float>
    private let doubles: UnsafeMutablePointer<Double>
    /// Per band (`Band.allCases` order): the sensitivity, this hop's onset function and the previous hop's.
    private let sensitivities: UnsafeMutablePointer<Float>
    private let values: UnsafeMutablePointer<Float>
    private let previousValues: UnsafeMutablePointer<Float>
    /// Per band: its mean square in its window this hop (`bandPowers`), and its mean and highest bin per Hz (two
    /// lanes a band).
    private let powers: UnsafeMutablePointer<Float>
    private let densities: UnsafeMutablePointer<Float>
    /// Σ x² of each hop in the long window (a ring of `hopsPerWindow`), for the silence gate.
    private let hopSquares: UnsafeMutablePointer<Float>
    private var hopSquaresIndex = 0
    /// Per band: the onset function's recent values (a ring of `meanLength`), their sum, and the last onset's time.
    private let meanLength: Int
    private let recent: UnsafeMutablePointer<Float>
    private var recentIndex = 0
    private let recentSums: UnsafeMutablePointer<Double>
    private let lastOnsets: UnsafeMutablePointer<Double>
    /// Per band: whether it is measured in the short window (a bit each).
    private(set) var shortBands: UInt8 = 0
    /// Samples still to take before the next hop.
    private var untilHop: Int
    /// Whether the window was sounding on each of the last `longPastHops` hops (a ring of bits; the oldest next).
    private var wasSounding: UInt8 = 0
    private var wasSoundingIndex = 0
    /// What of each band's power is its neighbours' splatter: no onset from it, and the levels without it.
    private var spill: SpillGuard

    public init(sampleRate: Int, bands: BandsSettings, accents: AccentSettings, silenceThresholdDBFS: Double) {
        self.sampleRate = max(1, sampleRate)
        let length = Self.windowLength(sampleRate: self.sampleRate)
        size = length
        hop = length / Self.hopsPerWindow
        shortSize = length / 4
        // The decimated long window and the short one share one transform: unpadded at a quarter of the rate (the
        // same length), zero-padded at half the rate.
        let quarterShared = PackedRealFFT(size: length / 4)
        longQuarterRate = SpectralFlux(size: length / 4, pastHops: Self.longPastHops, fft: quarterShared)
        shortUnpadded = SpectralFlux(size: shortSize, pastHops: Self.shortPastHops, fft: quarterShared)
        let halfShared = PackedRealFFT(size: length / 2)
        longHalfRate = SpectralFlux(size: length / 2, pastHops: Self.longPastHops, fft: halfShared)
        shortPadded = SpectralFlux(size: shortSize, pastHops: Self.shortPastHops, fft: halfShared)
        longFullRate = SpectralFlux(size: length, pastHops: Self.longPastHops, fft: PackedRealFFT(size: length))
        halfRate = SampleHistory(capacity: length / 2)
        quarterRate = SampleHistory(capacity: length / 4)
        let hopLength = length / Self.hopsPerWindow
        halving = HalvingFilter(longestPiece: hopLength)
        // A hop's piece halved is at most hop / 2 + 1 samples.
        quartering = HalvingFilter(longestPiece: hopLength / 2 + 1)
        self.silenceThresholdDBFS = silenceThresholdDBFS
        let bandCount = Band.allCases.count
        meanLength = max(1, Int(Self.meanSeconds * Double(self.sampleRate) / Double(length / Self.hopsPerWindow)))
        let floatCount = 6 * bandCount + Self.hopsPerWindow + meanLength * bandCount
        floats = .allocate(capacity: floatCount)
        floats.initialize(repeating: 0, count: floatCount)
        (sensitivities, values, previousValues) = (floats, floats + bandCount, floats + 2 * bandCount)
        powers = floats + 3 * bandCount
        hopSquares = floats + 4 * bandCount
        recent = hopSquares + Self.hopsPerWindow
        densities = recent + meanLength * bandCount
        doubles = .allocate(capacity: 2 * bandCount)
        (recentSums, lastOnsets) = (doubles, doubles + bandCount)
        recentSums.initialize(repeating: 0, count: bandCount)
        lastOnsets.initialize(repeating: -Double.infinity, count: bandCount)
        untilHop = length / Self.hopsPerWindow
        spill = SpillGuard(span: length, hop: length / Self.hopsPerWindow)
        setBands(bands)
        setAccents(accents, silenceThresholdDBFS: silenceThresholdDBFS)
    }

    deinit {
        floats.deallocate()
        doubles.deallocate()
    }

    public func setBands(_ bands: BandsSettings) {
        let lowest = SpectralFlux.lowestFloorPower
        let isShort = Band.allCases.map { bands[$0].range.lower >= Self.shortWindowLowestHz }
        shortBands = 0
        for (index, short) in isShort.enumerated() where short { shortBands |= 1 << index }
        let longBands = Band.allCases.enumerated().map { index, band in
            isShort[index] ? nil : (range: bands[band].range, floorPower: band == .bass ? lowest : Self.raisedFloorPower)
        }
        let highest = longBands.compactMap { $0?.range.upper }.max() ?? 0
        longDecimation = highest <= Double(sampleRate) / 16 ? 4 : highest <= Double(sampleRate) / 8 ? 2 : 1
        let none = longBands.map { _ in (range: FrequencyRange, floorPower: Float)?.none }
        longQuarterRate.setBands(longDecimation == 4 ? longBands : none, sampleRate: Double(sampleRate) / 4)
        longHalfRate.setBands(longDecimation == 2 ? longBands : none, sampleRate: Double(sampleRate) / 2)
        longFullRate.setBands(longDecimation == 1 ? longBands : none, sampleRate: Double(sampleRate))
        let shortBands = Band.allCases.enumerated().map { index, band in
            isShort[index] ? (range: bands[band].range, floorPower: lowest) : nil
        }
        shortUnpadded.setBands(longDecimation == 4 ? shortBands : none, sampleRate: Double(sampleRate))
        shortPadded.setBands(longDecimation == 4 ? none : shortBands, sampleRate: Double(sampleRate))
    }

    public func setAccents(_ accents: AccentSettings, silenceThresholdDBFS: Double) {
        for (index, band) in Band.allCases.enumerated() { sensitivities[index] = Float(accents[band].sensitivity) }
        self.silenceThresholdDBFS = silenceThresholdDBFS
    }

    /// The long window's length at `sampleRate`: the power of two of at least 20 ms. The full-rate history given to
    /// `take` holds at least this many samples.
    static func windowLength(sampleRate: Int) -> Int {
        var length = 64
        while Double(length) < Double(sampleRate) * 0.020 { length *= 2 }
        return length
    }

    /// Samples still to take before the next hop: the caller cuts its pieces there.
    var samplesUntilHop: Int { untilHop }

    /// The mean square of the last hop's samples (the silence gate's measure).
    private(set) var hopMeanSquare: Double = 0

    /// Each band's mean square in its window on the last hop (lanes in `Band.allCases` order, the fourth 0): the
    /// band energy of the last 21 ms (5 ms in the short window), which `BandPowerTrack` puts the levels on time by;
    /// and the same less its neighbours' splatter (`SpillGuard`).
    var bandPowers: SIMD4<Float> { spill.powers }
    var ownBandPowers: SIMD4<Float> { spill.ownPowers }

    /// The newest `count` samples of `history` (`count` at most `samplesUntilHop`) are new, the first of them
    /// sample `firstSample` of the timeline: appends the onsets decided on the hop they complete to `onsets`.
    /// The history is the caller's, shared with the band meter: the samples are written once, and live, each
    /// wake-up fetches one copy of them from cold memory, not two.
    /// Returns whether the piece completed a hop.
    @discardableResult
    func take(_ count: Int, of history: SampleHistory, firstSample: Int64, into onsets: inout [Onset]) -> Bool {
        precondition(count <= untilHop && history.capacity >= size, "a piece past the hop, or a short history")
        // Both halvings run whatever the bands (a few hundred multiply-adds a frame), so a reload that changes how
        // far the long window is decimated finds that window's audio already there.
        let halved = halving.follow(history, appended: count, into: &halfRate)
        quartering.follow(halfRate, appended: halved, into: &quarterRate)
        untilHop -= count
        if untilHop == 0 {
            untilHop = hop
            decide(history, time: Double(firstSample + Int64(count)) / Double(sampleRate), into: &onsets)
            return true
        }
        return false
    }

    private func decide(_ history: SampleHistory, time: Double, into onsets: inout [Onset]) {
        let long = longDecimation == 1 ? longFullRate : nil
        let short = longDecimation == 4 ? shortUnpadded : shortPadded
        let (values, powers, densities, size, hop) = (values, powers, densities, size, hop)
        if longDecimation == 2 {
            halfRate.withNewest(size / 2) {
                longHalfRate.measure(samplesEndingAt: $0 + size / 2, into: values, powers: powers, densities: densities)
            }
        } else if longDecimation == 4 {
            quarterRate.withNewest(size / 4) {
                longQuarterRate.measure(samplesEndingAt: $0 + size / 4, into: values, powers: powers, densities: densities)
            }
        }
        let squares = history.withNewest(size) { window in
            let end = window + size
            long?.measure(samplesEndingAt: end, into: values, powers: powers, densities: densities)
            short.measure(samplesEndingAt: end, into: values, powers: powers, densities: densities)
            return LevelAnalyzer.sumOfSquares(UnsafeBufferPointer(start: end - hop, count: hop))
        }
        hopMeanSquare = Double(squares) / Double(hop)
        spill.push(SIMD4(powers[0], powers[1], powers[2], 0), shortPowerBelow: short.powerBelow, shortBands: shortBands)
        let level = Double(FastDecibels.of(max(windowMeanSquare(newest: squares), 1e-20)))
        let sounding = level >= silenceThresholdDBFS
        let bit: UInt8 = 1 << wasSoundingIndex
        let settled = wasSounding & bit != 0 || level >= silenceThresholdDBFS + Self.abruptStartDB
        wasSounding = sounding ? wasSounding | bit : wasSounding & ~bit
        wasSoundingIndex = (wasSoundingIndex + 1) % Self.longPastHops
        for band in 0..<Band.allCases.count {
            let mayDecide = sounding && (settled || shortBands & (1 << band) != 0)
            let splatter = !spill.isOwn(band) || isSplatterFromAbove(band)
            pick(band: band, value: values[band], time: time, mayDecide: mayDecide, splatter: splatter, into: &onsets)
        }
        recentIndex = (recentIndex + 1) % meanLength
    }

    /// Whether band `index`'s bins are the splatter of a tone starting in a band above: a sine switched on spreads
    /// down as flat as a click does, in total, but a click is as flat above as below, while the tone's band has a
    /// bin far over its mean. Measured per Hz at 48 kHz on the first hops of a start, in one window: a 1 kHz sine's
    /// highest bin was 3.5× its band's mean on the first hop (more after) and the bass band's mean bin 0.53× that
    /// bin, then 0.06× and 0.02×; a click's highest bin was 1.04× its band's mean. Across windows (the short window
    /// weighs a start's newest samples more): an 8 kHz sine left the bands below at most 3·10⁻⁵ of its bin, a click
    /// 1.3·10⁻⁴ on its first hop and 4·10⁻³ on its second (it is found a hop later). A kick struck with a snare
    /// whose tone is at 1 kHz keeps its bass bins above the tone's.
    private func isSplatterFromAbove(_ index: Int) -> Bool {
        let youth = spill.youth
        let short = shortBands & (1 << index) != 0
        for above in (index + 1)..<Band.allCases.count {
            let peak = densities[2 * above + 1]
            let sameWindow = short == (shortBands & (1 << above) != 0)
            let young = sameWindow ? Self.youngAbove : Self.youngAboveAcrossWindows
            guard youth[above] >= young, peak >= Self.tonalPeak * densities[2 * above] else { continue }
            let share = sameWindow ? Self.belowShare : Self.belowShareAcrossWindows
            if densities[2 * index] < share * peak { return true }
        }
        return false
    }

    /// The long window's mean square from the last hops' sums (`newest` this hop's): each hop's samples are summed
    /// once, not once a hop for as long as they stay in the window.
    private func windowMeanSquare(newest: Float) -> Float {
        hopSquares[hopSquaresIndex] = newest
        hopSquaresIndex = (hopSquaresIndex + 1) % Self.hopsPerWindow
        var squares: Float = 0
        for index in 0..<Self.hopsPerWindow { squares += hopSquares[index] }
        return squares / Float(size)
    }

    /// With `splatter`, the band's rise is its neighbours' start: no onset, and the rise still counts as new on the
    /// first hop that is the band's own (a snare struck with a kick is found once the kick's start has passed).
    private func pick(
        band: Int, value: Float, time: Double, mayDecide: Bool, splatter: Bool, into onsets: inout [Onset]
    ) {
        let slot = band * meanLength + recentIndex
        let mean = Float(recentSums[band] / Double(meanLength))
        let threshold = (mean + Self.thresholdDB) / max(sensitivities[band], 1e-3)
        let previous = previousValues[band]
        if mayDecide, !splatter, value >= threshold, previous < threshold,
            time - lastOnsets[band] >= Self.minimumGap - 1e-9 {
            lastOnsets[band] = time
            onsets.append(Onset(time: time, band: Band.allCases[band], strength: 1 - exp(-value / Self.strengthScaleDB)))
        }
        if !splatter { previousValues[band] = value }
        recentSums[band] += Double(value) - Double(recent[slot])
        recent[slot] = value
    }
}
