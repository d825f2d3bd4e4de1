public import LightShowCore

/// The pure level chain for the three bands, from band energies to light levels:
/// energy → dB → automatic gain → alpha → attack/release envelope, with the silence gate.
/// Free of I/O and FFT so it can be tested on numbers and reused by any analyzer.
public struct LevelProcessor: Sendable {
    public private(set) var gain: AutomaticGain
    public private(set) var gate: SilenceGate
    private var mapping: AlphaMapping
    private var envelopes: [Envelope]
    /// How far ahead of its envelopes the levels are shown, seconds (see `init`).
    public let lead: Double
    /// Each band's alpha before its envelope on the last step: where the envelope is heading.
    public private(set) var targets = BandLevels()

    /// - Parameter lead: the levels are where the envelopes would be `lead` seconds on with this step's target
    ///   held. Stepped once a frame with `lead` 0, as each step holds its target over the whole frame, the level at
    ///   60 fps is a frame ahead of the envelope's exact course; stepped on a finer hop, a lead of one 60 fps frame
    ///   keeps that, at every frame rate.
    public init(settings: AnalysisSettings, lead: Double = 0) {
        self.lead = max(0, lead)
        gain = AutomaticGain(settings: settings)
        gate = SilenceGate(thresholdDBFS: settings.silenceThresholdDBFS, holdMilliseconds: settings.silenceHoldMilliseconds)
        mapping = AlphaMapping(dynamicRangeDB: settings.dynamicRangeDB)
        envelopes = Band.allCases.map { _ in
            Envelope(attackMilliseconds: settings.attackMilliseconds, releaseMilliseconds: settings.releaseMilliseconds)
        }
    }

    /// One hop.
    /// - Parameters:
    ///   - meanSquares: each band's energy as mean square (a sine of peak A gives A²/2), in `Band.allCases` order.
    ///   - rmsDBFS: broadband RMS of the newest hop, for the silence gate.
    ///   - dt: seconds since the previous hop.
    /// - Returns: the levels and whether the gate is open.
    public mutating func process(meanSquares: [Double], rmsDBFS: Double, dt: Double) -> (levels: BandLevels, hasSound: Bool) {
        let open = gate.update(rmsDBFS: rmsDBFS, dt: dt)
        let levelsDB = meanSquares.map(Decibels.bandLevel(meanSquare:))
        if open { gain.update(levelsDB: levelsDB, dt: dt) }
        var levels = BandLevels()
        for (index, band) in Band.allCases.enumerated() {
            let target = open ? mapping.alpha(levelDB: levelsDB[index], ceilingDB: gain.ceilings[index]) : 0
            targets[band] = Float(target)
            envelopes[index].step(toward: target, dt: dt)
            let value = lead > 0 ? envelopes[index].ahead(by: lead, toward: target) : envelopes[index].value
            // Below a thousandth the light is invisible; snapping keeps "silence gives 0" exact.
            levels[band] = value < 0.001 ? 0 : Float(value)
        }
        return (levels, open)
    }
}
