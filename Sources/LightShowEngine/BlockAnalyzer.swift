public import LightShowAnalysis
public import LightShowCore

/// Turns sample blocks into analysis frames: the analyser as the engine sees it.
/// Created when the engine starts and used only behind its lock, one call at a time, so it needn't be Sendable.
public protocol BlockAnalyzer: AnyObject {
    func process(_ block: SampleBlock) -> [AnalysisFrame]
    /// Whether `frames` more input frames would complete a hop (make `process` return a frame).
    func completesHop(frames: Int) -> Bool
    /// New band ranges, analysis and accent settings from a config reload, taking effect from the next hop.
    func reconfigure(_ configuration: Configuration)
}

extension LevelAnalyzer: BlockAnalyzer {}
