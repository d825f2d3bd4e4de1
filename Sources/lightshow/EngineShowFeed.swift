import LightShowSystem
import LightShowAnalysis
import LightShowAudio
import LightShowCore
import LightShowEngine
import LightShowTerminal
import LightShowNowPlaying
import Logging

/// `watch`'s own pipeline behind the `ShowFeed` seam: the daemon's `ShowEngine` (source, analyzer, playback state,
/// user commands) with the newest frame kept for the viewer thread. Band changes from the tuning panel reach the
/// analyzer before its next block. `--connect` will put a daemon subscription behind the same seam.
final class EngineShowFeed: ShowFeed {
    private let engine: ShowEngine
    /// `[output] delay`, for speakers that play late.
    private let delayMilliseconds: Double
    private let latest = Locked<ShowFrame?>(nil)
    private let tunedBands = Locked<BandsSettings?>(nil)
    let frames = Announcer()

    /// - Parameter player: the now-playing source (MPD, MPRIS) whose state, title and controls the viewer shows.
    init(source: any AudioSource, configuration: Configuration, framesPerSecond: Double, player: (any NowPlayingSource)?) {
        let tunedBands = tunedBands
        delayMilliseconds = configuration.output.delayMilliseconds
        // The terminal is the screen: log lines on stderr would tear through the picture.
        let quiet = Logger(label: "lightshow.watch") { _ in SwiftLogNoOpLogHandler() }
        engine = ShowEngine(
            source: source, configuration: configuration, options: .init(framesPerSecond: framesPerSecond),
            player: player, logger: quiet
        ) {
            TunableAnalyzer(
                LevelAnalyzer(
                    settings: configuration.analysis, bands: configuration.bands, accents: configuration.accents,
                    background: configuration.background,
                    sampleRate: source.sampleRate, framesPerSecond: framesPerSecond
                ),
                bands: tunedBands
            )
        }
    }

    func latestFrame() -> ShowFrame? { latest.current }

    func send(_ command: UserCommand) { engine.send(command) }

    func updateBands(_ bands: BandsSettings) { tunedBands.withLock { $0 = bands } }

    /// Drawn with the viewer's own configuration.
    var sceneStyle: Scene.Style? { nil }

    /// Runs the show until the input ends (or the task is cancelled).
    func run() async throws {
        let latest = latest
        let viewer = FrameHandler({ frame in latest.withLock { $0 = frame } }, framesDone: { [frames] in frames.announce() })
        let delayed = try DelayedSink(viewer, delayMilliseconds: delayMilliseconds)
        defer { delayed.close() }
        try await engine.run([delayed])
    }
}

/// The analyzer as the engine sees it, picking up tuned band ranges before each block.
private final class TunableAnalyzer: BlockAnalyzer {
    private let analyzer: LevelAnalyzer
    private let bands: Locked<BandsSettings?>

    init(_ analyzer: LevelAnalyzer, bands: Locked<BandsSettings?>) {
        self.analyzer = analyzer
        self.bands = bands
    }

    func process(_ block: SampleBlock) -> [AnalysisFrame] {
        if let tuned = bands.withLock({ value in defer { value = nil }; return value }) {
            analyzer.updateBands(tuned)
        }
        return analyzer.process(block)
    }

    func completesHop(frames: Int) -> Bool { analyzer.completesHop(frames: frames) }
}
