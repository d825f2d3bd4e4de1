public import LightShowAnalysis
public import LightShowCore

extension BlockAnalyzer {
    /// Analysers without live settings keep their own.
    public func reconfigure(analysis: AnalysisSettings, bands: BandsSettings) {}
}

extension LevelAnalyzer {
    public func reconfigure(analysis: AnalysisSettings, bands: BandsSettings) {
        updateSettings(analysis)
        updateBands(bands)
    }
}
