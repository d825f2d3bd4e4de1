import Foundation
import LightShowCore
import Testing
import TestSupport

/// `record` runs through the show engine: each frame carries the show's real state, the toolbar shows it (▶, ⏸,
/// or collapsed when stopped), and a recording ends stopped with the lights faded to the background.
@Suite(.serialized, .tags(.pulseAudio, .mpd)) struct RecordPlaybackStateTests {
    struct Line: Decodable {
        var index: Int
        var t: Double
        var bass: Double
        var mid: Double
        var treble: Double
        var state: String
    }

    static func lines(_ dir: String) throws -> [Line] {
        try String(contentsOfFile: dir + "/frames.jsonl", encoding: .utf8).split(separator: "\n").map {
            try JSONDecoder().decode(Line.self, from: Data($0.utf8))
        }
    }

    static func frame(_ dir: String, _ line: Line) throws -> RecordedFrame {
        let name = "frame_" + String(repeating: "0", count: max(0, 6 - String(line.index).count)) + String(line.index) + ".png"
        return try RecordedFrame(path: dir + "/" + name, state: PlaybackState(rawValue: line.state) ?? .stopped)
    }

    /// 3 s of tone, then silence past idle_after: playing, then stopped by the silence with the lights faded out.
    @Test func silencePastIdleAfterStopsTheRecordingsShow() throws {
        let dir = try TemporaryDirectory("record-idle")
        let rate = 22_050
        let mono = Signals.sine(frequency: 1000, seconds: 3, sampleRate: rate, amplitude: 0.3)
            + Signals.silence(seconds: 3, sampleRate: rate)
        let input = try dir.write("tone-then-silence.wav", Signals.wav(mono, channels: 1, sampleRate: rate))
        let config = try dir.write("lightshow.toml", Data("""
            [playback]
            idle_after = "1s"
            fade_out = "0.5s"
            """.utf8))
        let out = dir.file("out")
        let result = try LightshowProcess.run(
            ["record", "--config", config, "--input", input, "--out", out, "--fps", "20", "--size", "320x180"]
        )
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try Self.lines(out)
        let firstStop = try #require(lines.firstIndex { $0.state == "stopped" }, "the show stops")
        #expect(lines[..<firstStop].allSatisfy { $0.state == "playing" }, "playing until then")
        #expect(lines[firstStop...].allSatisfy { $0.state == "stopped" }, "and stays stopped")
        // The tone ends at 3 s; the gate closes and idle_after (1 s) later the show stops.
        #expect(lines[firstStop].t >= 3.9 && lines[firstStop].t <= 4.6, "stopped at \(lines[firstStop].t) s")
        #expect(lines[40].mid > 0.5, "the tone lit the mid while playing")
        let dark = try #require(lines.firstIndex { $0.state == "stopped" && $0.bass == 0 && $0.mid == 0 && $0.treble == 0 })
        #expect(lines[dark].t - lines[firstStop].t <= 0.5 + 1e-6, "faded out within fade_out")

        let playing = try Self.frame(out, lines[40])
        #expect(playing.glyph == .playing, "▶ in the toolbar while playing")
        let last = try Self.frame(out, lines[lines.count - 1])
        #expect(last.glyph == nil, "no toolbar once stopped")
        #expect(last.lightsShowOnlyBackground, "the last frame's light centres are the background")
        #expect(last.bottomStripIsBackground(), "the toolbar's strip is background")
    }

    /// A live recording with MPD: the frames follow MPD's play, pause and stop, as `watch` would show them.
    @Test func aLiveRecordingFollowsMPD() async throws {
        let pulse = try PulseAudioServer()
        try await pulse.start()
        defer { pulse.stop() }
        let mpd = try await MPDServer.withTone(title: "Mid Tone", frequency: 1000, output: .pulse(pulse))
        let dir = try TemporaryDirectory("record-mpd")
        let out = dir.file("out")
        let record = try RunningLightshow(
            ["record", "--input", "alsa:pulse", "--mpd", mpd.address, "--out", out, "--fps", "20", "--size", "320x180"],
            environment: pulse.clientEnvironment.merging(["LIGHTSHOW_LOG": "info"]) { $1 }
        )
        defer { _ = record.stop() }
        func states() -> [String] { ((try? Self.lines(out)) ?? []).map(\.state) }
        try await waitFor("MPD connected", timeout: 30) { record.stderr.contains("MPD at \(mpd.address) reports stopped") }
        // Nothing plays, and the sound server sends nothing: the recording goes on in real time, stopped.
        try await waitFor("stopped frames", timeout: 30) { states().filter { $0 == "stopped" }.count >= 10 }
        try mpd.mpc("play")
        try await waitFor("playing frames with the tone", timeout: 30) {
            ((try? Self.lines(out)) ?? []).contains { $0.state == "playing" && $0.mid > 0.5 }
        }
        try mpd.mpc("pause")
        try await waitFor("paused frames", timeout: 30) { states().suffix(5).allSatisfy { $0 == "paused" } && states().count > 5 }
        try mpd.mpc("stop")
        try await waitFor("stopped frames", timeout: 30) { states().suffix(30).allSatisfy { $0 == "stopped" } && states().count > 30 }
        record.interrupt()
        try await waitFor("record exits", timeout: 30) { !record.isRunning }
        #expect(record.exitStatus == 0, "\(record.stderr)")

        let lines = try Self.lines(out)
        // MPD was stopped before play: the states run stopped → playing → paused → stopped, in that order.
        var runs: [String] = []
        for line in lines where runs.last != line.state { runs.append(line.state) }
        #expect(runs == ["stopped", "playing", "paused", "stopped"], "state runs: \(runs); log: \(record.stderr)")
        let paused = try #require(lines.last { $0.state == "paused" })
        #expect(try Self.frame(out, paused).glyph == .paused, "⏸ while paused")
        let playing = try #require(lines.last { $0.state == "playing" })
        #expect(try Self.frame(out, playing).glyph == .playing, "▶ while playing")
        let last = try Self.frame(out, lines[lines.count - 1])
        #expect(lines.last?.state == "stopped" && last.glyph == nil, "no toolbar once stopped")
        #expect(last.lightsShowOnlyBackground, "the last frame's light centres are the background")
    }
}
