import Foundation
import LightShowAudio
import LightShowCore
import LightShowEngine
import Synchronization
import LightShowNowPlaying
import Testing
import TestSupport

/// The engine following a real MPD: its state is the truth, its song is the title.
@Suite(.serialized, .tags(.mpd)) struct ShowEngineMPDTests {
    @Test func mpdDrivesStateAndTitleAndSurvivesARestart() async throws {
        let server = try await MPDServer.withTestTracks()
        let client = try MPDClient(
            address: try MPDAddress(parsing: server.address),
            backoff: ReopenBackoff(initial: 0.05, maximum: 0.5)
        )
        let source = try AudioSources.open(.demo, pacing: .realtime)
        let engine = ShowEngine(source: source, configuration: ShowEngineTests.configuration,
                                options: .init(framesPerSecond: ShowEngineTests.fps), player: client)
        let (frames, task) = ShowEngineTests.start(engine)
        defer { task.cancel() }

        // MPD starts stopped, and its word outranks the demo's sound: the show stops and goes dark.
        try await waitFor("MPD connected and stopped", timeout: 30) {
            engine.status.playerConnected && engine.status.state == .stopped
        }

        try server.mpc("play", "1")
        let sent = ContinuousClock.now
        try await waitFor("playing 'Test Tone'", timeout: 30) {
            engine.status.state == .playing && engine.status.title == "Test Tone"
        }
        let latency = ContinuousClock.now - sent
        #expect(latency < .milliseconds(200), "state reached the engine after \(latency)")
        #expect(engine.status.reason == .player(.playing))
        let playing = try await frames.first("a playing frame with the title") {
            $0.state == .playing && $0.title == "Test Tone"
        }
        #expect(playing.arrival.element.elapsed.map { $0 >= 0 && $0 < 60 } == true)

        try server.mpc("pause")
        try await waitFor("paused", timeout: 30) { engine.status.state == .paused }
        try await frames.first("a paused frame", after: playing.index) { $0.state == .paused && $0.title == "Test Tone" }

        try server.mpc("stop")
        try await waitFor("stopped", timeout: 30) { engine.status.state == .stopped }
        #expect(engine.status.reason == .player(.stopped))

        // MPD goes away: the demo's sound takes over; MPD back: its state rules again, without a restart.
        server.kill()
        try await waitFor("MPD lost, sound playing", timeout: 30) {
            !engine.status.playerConnected && engine.status.state == .playing
        }
        #expect(engine.status.reason == .soundReturned)
        #expect(engine.status.title == "Demo")
        try await server.start()
        try await waitFor("reconnected and stopped", timeout: 30) {
            engine.status.playerConnected && engine.status.state == .stopped
        }
    }
}
