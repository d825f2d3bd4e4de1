extension Configuration {
    /// Whether an output needs the analysis' spectrum summary (a WLED audio sync output): without one the
    /// analysis doesn't measure it.
    public var wantsSpectrumSummary: Bool {
        lights.contains { $0.networkProtocol == .wledSync }
    }
}
