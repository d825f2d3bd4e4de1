public import LightShowCore

/// Per-band automatic gain as an adaptive ceiling in dB.
///
/// Each band's ceiling jumps up to any louder level at once (no clipping, no overshoot) and falls back slowly at
/// `recoveryDBPerSecond`, so a quiet song is brought up over a few seconds while a steady or rhythmic signal barely
/// moves the ceiling (no pumping). Two bounds keep the gain sane:
/// - a floor of `−maximumGainDB` (relative to a full-scale sine): quiet material gets at most that much boost;
/// - a band's ceiling never falls more than `bandSpreadDB` below the loudest band's, so leakage from a loud band
///   and hiss in an empty band stay dark.
/// The ceilings freeze while the silence gate is closed, so a pause between songs doesn't raise the gain.
public struct AutomaticGain: Equatable, Sendable {
    public var recoveryDBPerSecond: Double
    public var maximumGainDB: Double
    public var bandSpreadDB: Double
    /// Current ceiling per band, dB; starts at the floor so the first sound sets it.
    public private(set) var ceilings: [Double]

    public init(bandCount: Int, recoveryDBPerSecond: Double, maximumGainDB: Double, bandSpreadDB: Double) {
        self.recoveryDBPerSecond = Swift.max(0, recoveryDBPerSecond)
        self.maximumGainDB = Swift.max(0, maximumGainDB)
        self.bandSpreadDB = Swift.max(0, bandSpreadDB)
        ceilings = Array(repeating: -self.maximumGainDB, count: bandCount)
    }

    public init(settings: AnalysisSettings, bandCount: Int = Band.allCases.count) {
        self.init(
            bandCount: bandCount,
            recoveryDBPerSecond: settings.gainRecoveryDBPerSecond,
            maximumGainDB: settings.maximumGainDB,
            bandSpreadDB: settings.bandSpreadDB
        )
    }

    /// Lowest ceiling any band may have.
    public var floorDB: Double { -maximumGainDB }

    /// Updates the ceilings with this hop's band levels (dB) over `dt` seconds and returns them.
    @discardableResult
    public mutating func update(levelsDB: [Double], dt: Double) -> [Double] {
        let fall = recoveryDBPerSecond * Swift.max(0, dt)
        for index in ceilings.indices where index < levelsDB.count {
            ceilings[index] = Swift.max(levelsDB[index], ceilings[index] - fall, floorDB)
        }
        let loudest = ceilings.max() ?? floorDB
        for index in ceilings.indices {
            ceilings[index] = Swift.max(ceilings[index], loudest - bandSpreadDB)
        }
        return ceilings
    }
}
