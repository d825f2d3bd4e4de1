import LightShowAnalysis
import LightShowAudio
import LightShowCore
import LightShowTerminal

/// `watch`'s own pipeline behind the `ShowFeed` seam: source → analyzer → playback state → frames.
/// The analysis runs in `run` (one task owns the analyzer); the viewer thread reads the newest frame and leaves
/// commands and band changes here, which the pipeline picks up at the next block.
final class LocalShowFeed: ShowFeed {
    private struct Shared {
        var latest: ShowFrame?
        var commands: [UserCommand] = []
        var bands: BandsSettings?
    }

    private let shared = Locked(Shared())

    func latestFrame() -> ShowFrame? { shared.current.latest }

    func send(_ command: UserCommand) { shared.withLock { $0.commands.append(command) } }

    func updateBands(_ bands: BandsSettings) { shared.withLock { $0.bands = bands } }

    /// Reads `source` to its end (or until cancelled), publishing one frame per analysis hop.
    func run(source: any AudioSource, configuration: Configuration, framesPerSecond: Double) async throws {
        let analyzer = LevelAnalyzer(
            settings: configuration.analysis, bands: configuration.bands,
            sampleRate: source.sampleRate, framesPerSecond: framesPerSecond
        )
        var machine = PlaybackStateMachine(settings: configuration.playback, clock: ContinuousClock())
        var effects = PlaybackEffects(settings: configuration.playback)
        let title = source.spec.defaultTitle
        var index = 0
        var time = 0.0
        effects.enter(machine.inputStarted().newState ?? machine.state, at: time)
        for try await block in source.blocks() {
            let (commands, bands) = shared.withLock { state in
                defer { state.commands = []; state.bands = nil }
                return (state.commands, state.bands)
            }
            for command in commands {
                if let state = machine.user(command).newState { effects.enter(state, at: time) }
            }
            if let bands { analyzer.updateBands(bands) }
            for analysis in analyzer.process(block) {
                time = analysis.time
                if let state = machine.audio(hasSound: analysis.hasSound).newState { effects.enter(state, at: time) }
                let levels = effects.levels(live: analysis.levels, at: time)
                let frame = ShowFrame(index: index, time: time, levels: levels, state: machine.state, title: title, elapsed: time)
                index += 1
                shared.withLock { $0.latest = frame }
            }
            if Task.isCancelled { return }
        }
        // End of input: stopped, lights out.
        if let state = machine.inputEnded().newState { effects.enter(state, at: time) }
        let frame = ShowFrame(index: index, time: time, levels: .zero, state: machine.state, title: title, elapsed: time)
        shared.withLock { $0.latest = frame }
    }
}
