import Foundation
import Testing
import TestSupport

/// A desktop end to end: a real mpv with mpv-mpris plays into a PulseAudio null sink (`--ao=pulse`) on a private
/// session bus, and lightshow records what plays (`--input pulse`) while following mpv over MPRIS. The levels,
/// the title and the state must line up, and the user's keys must reach mpv.
@Suite(.serialized, .tags(.pulseAudio, .dbus, .mpv)) struct DesktopEndToEndTests {
    /// Speakers only, and the 440 Hz "microphone" as the default source that must stay unrecorded.
    static func server() async throws -> PulseAudioServer {
        let server = try PulseAudioServer(modules: """
            load-module module-null-sink sink_name=speakers rate=48000 channels=2 norewinds=1
            load-module module-sine-source source_name=mic frequency=440 rate=48000
            set-default-sink speakers
            set-default-source mic
            """)
        try await server.start()
        return server
    }

    static func parse(_ line: String) -> AnalyzeMPDEndToEndTests.Line? { AnalyzeMPDEndToEndTests.parse(line) }

    @Test func analyzeLevelsTitleAndStateLineUp() async throws {
        let server = try await Self.server()
        defer { server.stop() }
        let bus = try SessionBus()
        let directory = try TemporaryDirectory()
        let tone = try SessionBus.taggedTone(in: directory, seconds: 30)
        try bus.startMPV(tone, audioOutput: "pulse", extraEnvironment: server.clientEnvironment)

        // No --player: a session bus is there and no MPD is configured, so MPRIS is followed.
        let analyze = try RunningLightshow(
            ["analyze", "--input", "pulse", "--fps", "30"],
            environment: server.clientEnvironment.merging(bus.environment) { $1 }.merging(["LIGHTSHOW_LOG": "info"]) { $1 })
        defer { analyze.stop() }
        let playing = try await analyze.lines.first("playing with mid lit", timeout: 30) {
            Self.parse($0).map { $0.state == "playing" && $0.mid > 0.8 } ?? false
        }
        let settled = try await analyze.lines.first("settled", after: playing.index + 30, timeout: 30) { _ in true }
        let line = try #require(Self.parse(settled.arrival.element))
        #expect(line.state == "playing" && line.mid > 0.8 && line.bass < 0.05 && line.treble < 0.05, "\(line)")
        try await waitFor("title in the log", timeout: 30) { analyze.stderr.contains("title: Test Tone") }
        #expect(analyze.stderr.contains("MPRIS: following mpv"))

        try bus.playerctl("-p", "mpv", "pause")
        let paused = try await analyze.lines.first("paused", after: settled.index, timeout: 30) {
            Self.parse($0)?.state == "paused"
        }
        try bus.playerctl("-p", "mpv", "play")
        try await analyze.lines.first("playing again", after: paused.index, timeout: 30) {
            Self.parse($0).map { $0.state == "playing" && $0.mid > 0.5 } ?? false
        }
    }

    @Test func watchShowsTheTitleFollowsPauseAndPausesThePlayer() async throws {
        let server = try await Self.server()
        defer { server.stop() }
        let bus = try SessionBus()
        let state = try TemporaryDirectory("watch-state")
        try FileManager.default.createDirectory(atPath: state.file("lightshow"), withIntermediateDirectories: true)
        try state.write("lightshow/help-shown", Data())
        let tone = try SessionBus.taggedTone(in: state, seconds: 30)
        try bus.startMPV(tone, audioOutput: "pulse", extraEnvironment: server.clientEnvironment)

        var environment = ["COLORTERM": "truecolor", "TERM": "screen", "XDG_STATE_HOME": state.path, "NO_COLOR": ""]
        environment.merge(server.clientEnvironment) { $1 }
        environment.merge(bus.environment) { $1 }
        let tmux = try TmuxSession(columns: 160, rows: 48, environment: environment,
                                   command: "'\(LightshowProcess.executableURL.path)' watch --input pulse")
        func lastLine() -> String {
            tmux.text().split(separator: "\n", omittingEmptySubsequences: false).dropLast().last.map(String.init) ?? ""
        }
        do {
            try await waitFor("▶ Test Tone", timeout: 30) { lastLine().contains("▶ Test Tone") }
        } catch {
            Issue.record("the pane shows: \(tmux.text())")
            throw error
        }
        // What plays lights the mid light (1 kHz); the 440 Hz microphone would light the bass.
        try await waitFor("the mid light lit", timeout: 30) {
            (tmux.screen().extent(where: WatchTerminalTests.isMid)?.count ?? 0) > 300
        }
        // The tone's first samples are a click, and a click is an onset in every band: the bass light may flash
        // once and must then go dark while the mid light stays lit (both in one capture: a later one may catch a
        // frame half drawn).
        try await waitFor("the bass light dark beside the lit mid light", timeout: 30) {
            let screen = tmux.screen()
            return (screen.extent(where: WatchTerminalTests.isBass)?.count ?? 0) < 50
                && (screen.extent(where: WatchTerminalTests.isMid)?.count ?? 0) > 300
        }

        try bus.playerctl("-p", "mpv", "pause")
        try await waitFor("⏸ Test Tone", timeout: 30) { lastLine().contains("⏸ Test Tone") }

        // The user's space goes to mpv itself.
        try tmux.send("Space")
        try await waitFor("mpv playing", timeout: 30) { (try? bus.playerctl("-p", "mpv", "status")) == "Playing" }
        try await waitFor("▶ again", timeout: 30) { lastLine().contains("▶ Test Tone") }
        try tmux.send("Space")
        try await waitFor("mpv paused by space", timeout: 30) { (try? bus.playerctl("-p", "mpv", "status")) == "Paused" }
        try await waitFor("⏸ again", timeout: 30) { lastLine().contains("⏸ Test Tone") }

        try tmux.send("q")
        try await waitFor("exit", timeout: 30) { tmux.text().contains("EXIT=0") }
    }
}
