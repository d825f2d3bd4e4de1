import LightShowCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Brings the band meter's energies on time: the onset detector's short windows, measured every hop (≈ 2.9 ms), give
/// each band's energy of the last few milliseconds; the meter's long window gives its energy accurately split at the
/// crossovers but centred some 46 ms in the past. Each band's energy on each hop is the short windows' newest,
/// scaled by how the meter's energy at the last frame compared with the short windows' energies weighted over the
/// same span as the meter weighs them. On a steady sound that scale is exactly the meter's over the short windows',
/// so a steady tone lights the bands as the meter splits them; when the sound changes, the energy moves with the
/// short windows. Being on the detector's hop, not the frame's, it is the same at every frame rate.
///
/// Measured on `accents.sh`'s songs and tone bursts against the band-filtered audio's 20 ms RMS, without accents
/// (the light at t matched best with the ideal at t − lag): the meter alone trails by 34–38 ms in bass and mid,
/// this by 0–12 ms. An IIR filterbank (Butterworth, 4th order a side) on the samples in the short windows' place
/// trailed bass by 24 ms and cost a few multiply-adds on every sample; the short windows come with the detector.
/// The scale is held at most `maximumScale`: as a burst starts, both energies it compares are a few samples'
/// worth, and their ratio alone overshot the steady level by 3 dB. Pure numbers; one owner thread.
struct BandPowerTrack {
    /// The most a band's short-window energy is scaled up (a band's edge bins that the short windows spread into
    /// their neighbour's); see above.
    static let maximumScale = 1.5
    /// Energy (mean square) added to both sides of the scale, so silence gives 1 rather than 0 / 0: −120 dB.
    static let floor = 1e-12
    /// The long window's energy is centred 11.6 ms back (1024 points at 44.1 kHz): each long-window band's energy is
    /// carried on along its trend, times (its power now over its power `trendHops` back)^`trendGain`, within
    /// `largestTrend` either way: in dB, half the change of the last two hops (5.8 ms at 44.1 kHz) added on. A
    /// steady sound is unchanged. On `accents.sh`'s songs without accents the bass light's best lag went from 12 to
    /// 9 ms (mid 10 → 9) and its Spearman r at zero lag from 0.82 to 0.85; a gain of 1 was no sooner and r 0.84. The
    /// short window (5.8 ms) is on time already: carried on, the treble light's r fell from 0.92 to 0.91.
    static let trendHops = 2
    static let trendGain = 0.5
    static let largestTrend = 4.0

    /// Per hop, oldest first: the share of the long and of the short window's Σ w² (energy weighting) it holds,
    /// over the newest `longWeights.count` hops.
    private let longWeights: [Double]
    private let shortWeights: [Double]
    /// A ring of the last hops' band powers, one SIMD4 (lanes in `Band.allCases` order) a hop; `newest` the last.
    private var ring: [SIMD4<Double>]
    private var next = 0

    /// - Parameters: `longSpan` and `shortSpan`, the meter's windows in input samples; `hop`, the detector's.
    init(longSpan: Int, shortSpan: Int, hop: Int) {
        let hop = max(1, hop)
        let hops = max(1, longSpan / hop)
        func weights(_ span: Int) -> [Double] {
            let window = HannWindow(size: max(1, span))
            var perHop = [Double](repeating: 0, count: hops)
            // The window ends with the newest hop; a shorter window covers only the newest of them.
            let offset = hops * hop - span
            for (n, w) in window.coefficients.enumerated() {
                let index = (offset + n) / hop
                if index >= 0 && index < hops { perHop[index] += Double(w) * Double(w) }
            }
            let total = perHop.reduce(0, +)
            return total > 0 ? perHop.map { $0 / total } : perHop
        }
        longWeights = weights(longSpan)
        shortWeights = weights(min(shortSpan, hops * hop))
        ring = [SIMD4<Double>](repeating: .zero, count: hops)
    }

    /// Each band's scale, from the last `rescale`: 1 until the meter has measured.
    private(set) var scales = SIMD4<Double>(repeating: 1)

    /// The newest hop's powers less their neighbours' splatter.
    private var newestOwn = SIMD4<Double>()
    /// The bands measured in the long window (a bit each, `Band.allCases` order), whose energies are carried on
    /// along their trend (see `trendGain`).
    private var predicted: UInt8 = 0
    /// Pushes until the ring holds `trendHops` hops measured in the bands as they are now (`bandsChanged`).
    private var untilTrend = 0

    /// One hop's band powers (mean squares, lanes in `Band.allCases` order), as measured, which the scales relate to
    /// the meter's, and less their neighbours' splatter (`SpillGuard`), which the levels follow; `longBands`, the
    /// bands measured in the detector's long window (a bit each).
    mutating func push(_ powers: SIMD4<Float>, own: SIMD4<Float>, longBands: UInt8) {
        predicted = untilTrend > 0 ? 0 : longBands
        untilTrend = max(0, untilTrend - 1)
        ring[next] = SIMD4<Double>(powers)
        next = (next + 1) % ring.count
        newestOwn = SIMD4<Double>(own)
    }

    /// The newest hop's band powers, less their neighbours' splatter, scaled: the band energies on time, in
    /// `Band.allCases` order. Until the scales have seen a new sound they don't correct its spread, and a short
    /// window can't tell a sound's first milliseconds from its neighbours': the splatter is taken off first.
    func energies(into energies: inout [Double]) {
        var newest = newestOwn * scales
        let count = ring.count
        let now = ring[(next + count - 1) % count]
        let back = ring[(next + 2 * count - 1 - min(count - 1, Self.trendHops)) % count]
        for band in 0..<Band.allCases.count where predicted & (1 << band) != 0 {
            let trend = pow((now[band] + Self.floor) / (back[band] + Self.floor), Self.trendGain)
            newest[band] *= min(Self.largestTrend, max(1 / Self.largestTrend, trend))
        }
        energies.removeAll(keepingCapacity: true)
        for band in 0..<Band.allCases.count { energies.append(newest[band]) }
    }

    /// The bands' ranges changed: the powers in the ring were measured in the old ones, and a band that now holds a
    /// sound it did not would be carried along a trend that is no sound's (a 1 kHz tone moved into the bass band
    /// lifted the bass band's gain ceiling by 6 dB, and its light stayed at 0.73).
    mutating func bandsChanged() {
        untilTrend = Self.trendHops + 1
    }

    /// The hops' powers weighted by `weights` (oldest first).
    private func weightedMean(_ weights: [Double]) -> SIMD4<Double> {
        var mean = SIMD4<Double>.zero
        ring.withUnsafeBufferPointer { ring in
            weights.withUnsafeBufferPointer { weights in
                for age in 0..<ring.count { mean += ring[(next + age) % ring.count] * weights[age] }
            }
        }
        return mean
    }

    /// New scales from the meter's `energies` (mean squares, `Band.allCases` order) measured now, and each band's
    /// share of its energy from the meter's long window (the rest from its short one), for the hops that follow.
    mutating func rescale(_ energies: [Double], longShares: [Double]) {
        let longMean = weightedMean(longWeights)
        let shortMean = weightedMean(shortWeights)
        for band in energies.indices where band < 4 {
            let share = band < longShares.count ? min(1, max(0, longShares[band])) : 1
            let weighted = share * longMean[band] + (1 - share) * shortMean[band]
            scales[band] = min(Self.maximumScale, (energies[band] + Self.floor) / (weighted + Self.floor))
        }
    }
}
