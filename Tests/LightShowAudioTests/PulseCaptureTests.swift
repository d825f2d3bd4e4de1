import Foundation
import LightShowAudio
import LightShowCore
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The PulseAudio source itself against a real server: what it delivers, and how fast it stops.
/// The server's address is passed in, not set in this process's environment, which other suites read.
@Suite(.tags(.pulseAudio)) struct PulseCaptureTests {
    @Test func deliversFloatStereoAndStopsWithin100Milliseconds() async throws {
        let server = try PulseAudioServer.desktop()
        try await server.start()
        defer { server.stop() }
        let source = try PulseCaptureSource(source: nil, server: "unix:\(server.socketPath)")
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
