/// Tells a band's own new energy from its neighbours' splatter: a sound that starts abruptly (a sine switched on, a
/// kick's first milliseconds) spreads over every band in a window that holds its start, and more so the younger
/// the sound is in the window. Measured in `OnsetDetector`'s windows, a 60 Hz sine switched on gave the mid band
/// −5 dB of the bass band's power on its first hop, −16 dB on the second and −36 dB by the sixth; a 1 kHz one gave
/// the bass band −13, −17 and −31 dB; an 8 kHz one, measured in the short window, lifted the long window's mid band
/// to −31 dB of it while its start crossed the middle of that window. So each band's power on a hop is less the
/// splatter its neighbours can make then: their power times `nearShare` at youth 1 (falling as youth⁴⁰, so only the
/// first hops of a sound), plus `settlingShare` times their youth, where a band's youth is how much of its power is
/// new over the long window's span: 1 − (its powers over that span, weighted as the window weighs them) / its power
/// now. A band two away takes `farFactor` of that. A held sound has youth 0, so a steady split is untouched; a
/// sound that falls (a kick's ring) has youth 0 as soon as it does.
///
/// A band measured in the short window sees a young sound's start far louder than the long window does (it weighs
/// the newest samples more): a 1 kHz sine switched on lit the treble band's onset with a power above the mid band's
/// on its first hop. So for an onset in those bands the near splatter is taken from the short window's own power
/// under the band, at the youngest lower band's youth. Their levels take off only the `settlingShare` part: on
/// `accents.sh`'s songs (treble above 1723 Hz) the near part took every kick's, chord's and snare's first hops off the
/// treble light, whose Spearman r against the band's 20 ms RMS fell from 0.93 to 0.90 without accents (0.92 without
/// that part); a 1 kHz sine switched on lifts the treble light to 0.07 at most without it.
///
/// An onset counts as splatter only when it comes from below (`isOwn`): a sound's start spreads downward as flat as
/// a click does (a 1 kHz sine's start gives the bass band −13 dB of the mid band's power, and so does a click), and
/// a click is an onset in every band. Pure numbers; one owner thread.
struct SpillGuard {
    /// A neighbour's splatter at youth 1, of its power: above the −5 dB measured on a sine's first hop.
    static let nearShare: Float = 0.5
    /// A neighbour's splatter while its start crosses the long window, times its youth: −20 dB, above the −31 dB an
    /// 8 kHz sine made in the mid band at youth 0.65 and the −37 dB at 0.12.
    static let settlingShare: Float = 0.01
    /// A band two away splatters this much less: a 60 Hz sine's first hop lifted treble to −20 dB of it.
    static let farFactor: Float = 0.05
    /// The share of a band's power its splatter may reach before an onset there counts as splatter (see
    /// `isOwn`).
    static let ownShare: Float = 0.5

    /// Per hop of the long window's span, oldest first: its share of Σ w².
    private let weights: [Float]
    /// The last hops' powers, a ring of `weights.count`; `next` the oldest.
    private var ring: [SIMD4<Float>]
    private var next = 0
    /// The last hop's powers, what splatter from the other bands explains of them, and what from the bands below.
    private(set) var powers = SIMD4<Float>()
    private(set) var splatter = SIMD4<Float>()
    private var splatterFromBelow = SIMD4<Float>()
    /// Each band's youth on the last hop (see above): 0 for a held sound, near 1 for one just started.
    private(set) var youth = SIMD4<Float>()

    /// - Parameters: `span`, the long window's length in samples; `hop`, the detector's.
    init(span: Int, hop: Int) {
        let hop = max(1, hop)
        let hops = max(1, span / hop)
        let window = HannWindow(size: hops * hop)
        var weights = [Float](repeating: 0, count: hops)
        for (n, w) in window.coefficients.enumerated() { weights[n / hop] += w * w }
        let total = weights.reduce(0, +)
        self.weights = total > 0 ? weights.map { $0 / total } : weights
        ring = [SIMD4<Float>](repeating: .zero, count: hops)
    }

    /// Takes one hop's band powers (mean squares, lanes in `Band.allCases` order, the fourth 0), the short window's
    /// mean square under its lowest band, and which bands it measures (a bit each, `Band.allCases` order).
    mutating func push(_ newest: SIMD4<Float>, shortPowerBelow: Float, shortBands: UInt8) {
        ring[next] = newest
        next = (next + 1) % ring.count
        var weighted = SIMD4<Float>()
        for age in 0..<ring.count { weighted += ring[(next + age) % ring.count] * weights[age] }
        let safe = newest.replacing(with: .leastNormalMagnitude, where: newest .< .leastNormalMagnitude)
        var youth = 1 - weighted / safe
        youth = youth.replacing(with: 0, where: youth .< 0)
        self.youth = youth
        var young = youth * youth     // youth⁴⁰: 2, 4, 8, 16, 32, then × 8
        young *= young
        young *= young
        let young8 = young
        young *= young
        young *= young
        young *= young8
        let made = newest * (Self.nearShare * young + Self.settlingShare * youth)
        // Lanes past the bands are 0: a band's neighbours are the lanes beside it, and two away the far ones.
        let near = SIMD4(made[1], made[0] + made[2], made[1] + made[3], made[2])
        let far = SIMD4(made[2], made[3], made[0], made[1])
        splatter = near + Self.farFactor * far
        splatterFromBelow = SIMD4(0, made[0], made[1], made[2]) + Self.farFactor * SIMD4(0, 0, made[0], made[1])
        if shortBands != 0 {
            let youngestBelow = SIMD4(0, young[0], max(young[0], young[1]), 0)
            let settlingMade = newest * Self.settlingShare * youth
            let below = Self.nearShare * youngestBelow * shortPowerBelow
            for band in 0..<3 where shortBands & (1 << band) != 0 {
                let fromAbove = band + 1 < 3 ? settlingMade[band + 1] : 0
                let fromBelow = band > 0 ? settlingMade[band - 1] : 0
                splatter[band] = fromBelow + fromAbove
                splatterFromBelow[band] = below[band] + fromBelow
            }
        }
        powers = newest
    }

    /// The last hop's powers less their splatter.
    var ownPowers: SIMD4<Float> {
        let own = powers - splatter
        return own.replacing(with: 0, where: own .< 0)
    }

    /// Whether band `index`'s power on the last hop is mostly its own, not the splatter of a start below it: an
    /// onset there is not its neighbours' start.
    func isOwn(_ index: Int) -> Bool {
        splatterFromBelow[index] <= Self.ownShare * powers[index]
    }
}
