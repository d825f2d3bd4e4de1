import LightShowCore

/// `[analysis]`: envelope, gain and silence gate (AnalysisSettings).
enum AnalysisSection: ConfigSection {
    static let name = "analysis"

    static func read(_ section: SectionReader, into configuration: inout Configuration) {
        section.number("attack_ms", in: 0...10_000).assign(to: &configuration.analysis.attackMilliseconds)
        section.number("release_ms", in: 0...10_000).assign(to: &configuration.analysis.releaseMilliseconds)
        section.number("silence_threshold_db", in: -160...0).assign(to: &configuration.analysis.silenceThresholdDBFS)
        section.number("silence_hold_ms", in: 0...60_000).assign(to: &configuration.analysis.silenceHoldMilliseconds)
        section.number("dynamic_range_db", in: 1...160).assign(to: &configuration.analysis.dynamicRangeDB)
        section.number("gain_recovery_db_per_s", in: 0...1000).assign(to: &configuration.analysis.gainRecoveryDBPerSecond)
        section.number("max_gain_db", in: 0...120).assign(to: &configuration.analysis.maximumGainDB)
        section.number("band_spread_db", in: 0...120).assign(to: &configuration.analysis.bandSpreadDB)
    }
}
