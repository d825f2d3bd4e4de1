import Foundation
import Testing
import TestSupport

/// MPD plays into a PulseAudio null sink; `lightshow analyze --input alsa:pulse --mpd …` captures the sink's monitor
/// and follows MPD: the state column, the title (in the log) and the levels must line up.
@Suite(.serialized, .tags(.pulseAudio, .mpd)) struct AnalyzeMPDEndToEndTests {
    struct Line: Decodable {
        var t: Double
        var bass: Double
        var mid: Double
        var treble: Double
        var state: String
    }

    static func parse(_ line: String) -> Line? {
        try? JSONDecoder().decode(Line.self, from: Data(line.utf8))
    }

    @Test func stateTitleAndLevelsFollowMPD() async throws {
        let pulse = try PulseAudioServer()
        try await pulse.start()
        defer { pulse.stop() }
        let mpd = try await MPDServer.withTone(title: "Bass Tone", frequency: 60, output: .pulse(pulse))

        let analyze = try RunningLightshow(
            ["analyze", "--input", "alsa:pulse", "--mpd", mpd.address, "--format", "jsonl", "--fps", "30"],
            environment: pulse.clientEnvironment.merging(["LIGHTSHOW_LOG": "info"]) { $1 }
        )
        defer { analyze.stop() }
        func state(_ name: String, bassAbove: Double = -1) -> (String) -> Bool {
            { line in Self.parse(line).map { $0.state == name && $0.bass > bassAbove } ?? false }
        }

        // MPD is stopped at first, and its word is the truth.
        var seen: Int
        do {
            seen = try await analyze.lines.first("a stopped line", timeout: 30, where: state("stopped")).index
        } catch {
            Issue.record("no output; stderr: \(analyze.stderr)")
            throw error
        }
        try await waitFor("MPD state in the log", timeout: 30) { analyze.stderr.contains("stopped: MPD at \(mpd.address) reports stopped") }

        try mpd.mpc("play")
        // The capture sees the tone a moment after MPD starts it.
        let loud = try await analyze.lines.first("playing with bass", after: seen, timeout: 30, where: state("playing", bassAbove: 0.5))
        // A second later the onset has settled: a 60 Hz tone lights the bass only.
        let settled = try await analyze.lines.first("settled", after: loud.index + 30, timeout: 30, where: state("playing"))
        seen = settled.index
        let playing = try #require(Self.parse(settled.arrival.element))
        #expect(playing.bass > 0.5 && playing.mid < 0.2 && playing.treble < 0.2, "\(settled.arrival.element)")
        #expect(analyze.stderr.contains("playing: MPD at \(mpd.address) reports playing"))
        #expect(analyze.stderr.contains("title: Bass Tone"))

        try mpd.mpc("pause")
        let pausedIndex = try await analyze.lines.first("paused", after: seen, timeout: 30, where: state("paused")).index
        // Paused: the last levels held, dimmed, however the capture goes on.
        let held = try await analyze.lines.first("paused lines", after: pausedIndex + 10, timeout: 30, where: state("paused"))
        let first = try #require(Self.parse(analyze.lines.elements[pausedIndex]))
        let later = try #require(Self.parse(held.arrival.element))
        #expect(first.bass == later.bass && first.bass > 0 && first.bass < playing.bass)
        seen = held.index

        try mpd.mpc("stop")
        let stopped = try await analyze.lines.first("stopped", after: seen, timeout: 30, where: state("stopped"))
        // The lights fade out, then analysis sleeps: the last line is dark.
        let dark = try await analyze.lines.first("dark", after: stopped.index, timeout: 30) {
            Self.parse($0).map { $0.state == "stopped" && $0.bass == 0 && $0.mid == 0 && $0.treble == 0 } ?? false
        }
        // In the show's own time (each line's t), which a loaded machine delivering lines late doesn't stretch.
        let fade = try #require(Self.parse(dark.arrival.element)).t - (try #require(Self.parse(stopped.arrival.element))).t
        #expect(fade < 3, "dark \(fade) s after the stop")
        #expect(analyze.stderr.contains("stopped: MPD at \(mpd.address) reports stopped"))
    }
}
