import Foundation
import LightShowAudio
import LightShowCore
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The PulseAudio source itself against a real server: what it delivers, and how fast it stops.
/// Serialized because libpulse reads the server's address from this process's environment.
@Suite(.serialized, .tags(.pulseAudio)) struct PulseCaptureTests {
    @Test func deliversFloatStereoAndStopsWithin100Milliseconds() async throws {
        let server = try PulseAudioServer.desktop()
        try await server.start()
        defer { server.stop() }
        for (key, value) in server.clientEnvironment { setenv(key, value, 1) }
        defer { for key in server.clientEnvironment.keys { unsetenv(key) } }

        let source = try AudioSources.open(.pulse(source: nil))
        #expect(source.sampleRate == 48_000 && source.channels == 2 && source.isLive)
        let collector = BlockCollector(source)
        #expect(await collector.waitForFrames(48_000, seconds: 20))
        // The 1 kHz playing on speakers: real signal, not silence.
        let newest = collector.newestSamples(9_600)
        let peak = newest.map(abs).max() ?? 0
        #expect(peak > 0.05 && peak <= 1, "peak \(peak)")
        #expect(source.statistics.state == .running)

        let stopped = Date()
        collector.stop()
        #expect(await collector.waitForEnd(seconds: 5))
        let took = Date().timeIntervalSince(stopped)
        #expect(took < 0.1, "stop took \(took) s")
    }
}
