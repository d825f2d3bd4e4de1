import LightShowAnalysis
import LightShowCore

/// The per-block work of `analyze`: band levels, one formatted line per frame, written to stdout.
/// It runs on the source's reader thread (`AudioSource.forEachBlock`), so a live input costs one thread wake-up
/// per block rather than two. Used by one thread at a time: the reader while reading, then the command after
/// `forEachBlock` has returned (which orders the two).
final class AnalyzeSink: @unchecked Sendable {
    private let analyzer: LevelAnalyzer
    private let formatter: AnalysisLineFormatter
    let writer: StandardOutputWriter
    /// The error that stopped the output, rethrown by the command.
    private(set) var failure: (any Error)?

    init(analyzer: LevelAnalyzer, formatter: AnalysisLineFormatter, writer: StandardOutputWriter) {
        self.analyzer = analyzer
        self.formatter = formatter
        self.writer = writer
    }

    /// Analyses `block` and writes its frames; false once output can't go on (closed pipe or write error).
    func take(_ block: SampleBlock) -> Bool {
        // The playback state machine comes later; until then every frame is "playing".
        do {
            for frame in analyzer.process(block) {
                formatter.append(time: frame.time, levels: frame.levels, state: .playing, to: &writer.buffer)
                try writer.frameDone()
            }
        } catch {
            failure = error
            return false
        }
        return !writer.isClosed
    }
}
