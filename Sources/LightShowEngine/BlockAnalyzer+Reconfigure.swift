public import LightShowAnalysis
public import LightShowCore

extension BlockAnalyzer {
    /// Analysers without live settings keep their own.
    public func reconfigure(_ configuration: Configuration) {}
}

extension LevelAnalyzer {
    public func reconfigure(_ configuration: Configuration) {
        updateSettings(configuration.analysis)
        updateBands(configuration.bands)
        updateAccents(configuration.accents)
        updateBackground(configuration.background)
        summarizeSpectrum(configuration.wantsSpectrumSummary, settings: configuration.analysis)
    }
}
