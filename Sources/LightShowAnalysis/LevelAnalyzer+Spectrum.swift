public import LightShowCore

extension LevelAnalyzer {
    /// Turns the spectrum summary (`AnalysisFrame.spectrum`, what WLED audio sync sends) on or off, from the next
    /// hop; `settings` gives its gain the show's maximum gain, recovery and dynamic range. Off, it costs nothing.
    public func summarizeSpectrum(_ enabled: Bool, settings: AnalysisSettings) {
        meter.runsEveryTransform = enabled
        guard enabled else {
            spectrumSummarizer = nil
            return
        }
        if spectrumSummarizer?.settings != settings {
            spectrumSummarizer = SpectrumSummarizer(meter: meter, settings: settings)
        }
    }

    /// `frame` with the summary of the hop the meter has just measured, when it is on.
    func summarized(_ frame: AnalysisFrame) -> AnalysisFrame {
        guard let spectrumSummarizer else { return frame }
        var frame = frame
        frame.spectrum = spectrumSummarizer.summarize(meter, frame: frame)
        return frame
    }
}
