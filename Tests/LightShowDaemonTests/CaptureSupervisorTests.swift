import LightShowAudio
import LightShowCore
import LightShowEngine
import Logging
import Testing
import TestSupport
@testable import LightShowDaemon

@Suite struct CaptureSupervisorTests {
    /// A reload that comes while the input is still opening (no engine to tell yet) reaches the engine built from
    /// the configuration read before it, once that engine is published.
    @Test func aReloadWhileTheInputOpensReachesTheEngine() async throws {
        var opened = Configuration()
        opened.playback.pausedDim = 0.5
        let state = DaemonState(configuration: opened)
        let supervisor = CaptureSupervisor(state: state, framesPerSecond: 20, metrics: EngineMetrics(), logger: Logger(label: "test"))
        var reloaded = opened
        reloaded.playback.pausedDim = 0.2
        _ = state.replaceConfiguration(with: reloaded)
        supervisor.adopt(reloaded, restart: false)

        let source = try AudioSources.open(.demo, pacing: .realtime)
        let engine = ShowEngine(source: source, configuration: opened, options: .init(framesPerSecond: 20))
        let (stream, continuation) = AsyncStream.makeStream(of: ShowFrame.self)
        let run = Task {
            defer { continuation.finish() }
            try await engine.run([FrameHandler { continuation.yield($0) }])
        }
        defer { run.cancel() }
        supervisor.publish(source: source, engine: engine, run: run, builtFrom: opened)
        let frames = StreamRecorder(stream)

        let seen = try await frames.first("playing with light", timeout: 20) { $0.state == .playing && $0.levels.bass > 0 }.index
        engine.send(.pause)
        let paused = try await frames.first("paused", after: seen) { $0.state == .paused }
        let held = try #require(frames.elements[..<paused.index].last { $0.state == .playing }).levels
        #expect(paused.arrival.element.levels == held.scaled(by: 0.2), "dimmed as the reloaded configuration says")
    }
}
