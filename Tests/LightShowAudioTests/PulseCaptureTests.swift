import Foundation
import LightShowAudio
import LightShowCore
import LightShowSystem
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

    /// A stream that stays connected but brings nothing (its sink suspended by the user) is not a hung reader: the
    /// capture loop's own pulse goes on, so the daemon's watchdog keeps the service alive.
    @Test func aSuspendedSourceKeepsTheLoopsPulse() async throws {
        let server = try PulseAudioServer.desktop()
        try await server.start()
        defer { server.stop() }
        let source = try PulseCaptureSource(source: nil, server: "unix:\(server.socketPath)")
        let collector = BlockCollector(source)
        defer { collector.stop() }
        #expect(await collector.waitForFrames(4_800, seconds: 20))
        _ = try server.pactl("suspend-sink", "@DEFAULT_SINK@", "1")
        // Nothing comes while suspended: wait until the count has stood still for a second (10 s at most).
        var frames = collector.frameCount
        var stillSince = MonotonicClock.now()
        let giveUp = stillSince + 10_000_000_000
        while MonotonicClock.now() - stillSince < 1_000_000_000, MonotonicClock.now() < giveUp {
            _ = await collector.waitForFrames(frames + 1, seconds: 0.1)
            if collector.frameCount != frames {
                frames = collector.frameCount
                stillSince = MonotonicClock.now()
            }
        }
        try #require(MonotonicClock.now() - stillSince >= 1_000_000_000, "audio kept coming from a suspended sink")
        let pulse = try #require(source.statistics.lastAliveNanoseconds)
        let now = MonotonicClock.now()
        #expect(now - min(pulse, now) < 200_000_000, "the loop's pulse is \((now - min(pulse, now)) / 1_000_000) ms old")
        #expect(source.statistics.state == .running)
    }
}
