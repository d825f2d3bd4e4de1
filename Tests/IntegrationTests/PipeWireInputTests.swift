import Foundation
import Testing
import TestSupport

/// `--input pulse` on a PipeWire desktop: pipewire + wireplumber + pipewire-pulse, null sinks `speakers` (1 kHz)
/// and `headphones` (2 kHz), and a 440 Hz "microphone" (a pipe source fed by sox) as the default source.
/// pipewire-pulse resolves `@DEFAULT_MONITOR@` to the default *source*, so this proves the resolution by name.
@Suite(.serialized, .tags(.pipeWire)) struct PipeWireInputTests {
    typealias Line = AnalyzeMPDEndToEndTests.Line

    /// Loads the sinks, the microphone and the tones through pipewire-pulse (again after a restart).
    static func lay(_ server: PipeWireServer, tones: (String, String)) async throws {
        try server.pactl("load-module", "module-null-sink", "sink_name=speakers")
        try server.pactl("load-module", "module-null-sink", "sink_name=headphones")
        let fifo = server.directory.file("mic.fifo")
        if !FileManager.default.fileExists(atPath: fifo) { mkfifo(fifo, 0o600) }
        try server.pactl("load-module", "module-pipe-source", "source_name=mic", "file=\(fifo)", "format=s16le",
                         "rate=48000", "channels=1")
        try server.background("sh", ["-c", "exec sox -n -r 48000 -c 1 -b 16 -e signed -t raw - synth 600 sine 440 vol 0.5 > '\(fifo)'"])
        try await waitFor("defaults set", timeout: 30) {
            (try? server.pactl("set-default-sink", "speakers")) != nil && (try? server.pactl("set-default-source", "mic")) != nil
                && ((try? server.pactl("info")) ?? "").contains("Default Sink: speakers")
        }
        // A 200 ms playback buffer: with paplay's default, pipewire's null sinks here drop samples now and then
        // (the same clicks show in parec's capture of the monitor), and each click lights every band.
        try server.background("paplay", ["--latency-msec=200", "-d", "speakers", tones.0])
        try server.background("paplay", ["--latency-msec=200", "-d", "headphones", tones.1])
    }

    static func tone(_ frequency: Int, in directory: TemporaryDirectory) throws -> String {
        let path = directory.file("tone\(frequency).wav")
        try ExternalTool.run("sox", ["-n", "-r", "48000", "-c", "2", path, "synth", "120", "sine", "\(frequency)", "vol", "0.5"])
        return path
    }

    @Test func recordsWhatPlaysFollowsTheDefaultSinkAndSurvivesARestart() async throws {
        let server = try PipeWireServer()
        try await server.start()
        let tones = (try Self.tone(1000, in: server.directory), try Self.tone(2000, in: server.directory))
        try await Self.lay(server, tones: tones)
        let config = try server.directory.write("bands.toml", Data(PulseInputTests.bands.utf8))
        let run = try RunningLightshow(
            ["analyze", "--config", config, "--input", "pulse", "--fps", "50", "--player", "none"],
            environment: server.clientEnvironment.merging(["LIGHTSHOW_LOG": "info"]) { $1 })
        defer { run.stop() }

        let lit = try await run.lines.first("mid lit", timeout: 20) { PulseInputTests.parse($0).map { $0.mid > 0.8 } ?? false }
        let steady = try await PulseInputTests.frames(run, after: lit.index + 50, seconds: 1)
        #expect(steady.allSatisfy { $0.mid > 0.8 && $0.bass < 0.05 && $0.treble < 0.05 }, "\(steady.filter { !($0.mid > 0.8 && $0.bass < 0.05 && $0.treble < 0.05) }.map { $0.t })")

        let treble = try await PulseInputTests.followSwitch(run, label: "pipewire") {
            try server.pactl("set-default-sink", "headphones")
        }
        let afterSwitch = try await PulseInputTests.frames(run, after: treble.index + 50, seconds: 1)
        #expect(afterSwitch.allSatisfy { $0.treble > 0.8 && $0.bass < 0.05 }, "\(afterSwitch.filter { !($0.treble > 0.8 && $0.bass < 0.05) }.map { $0.t })")

        // pipewire-pulse crashes: its sinks go with it. Restarted and laid out again, capture resumes by itself.
        server.killPulse()
        try await waitFor("server lost", timeout: 30) { run.stderr.contains("sound server lost") }
        let lost = run.lines.all.count
        try await server.startPulse()
        try await Self.lay(server, tones: tones)
        try await waitFor("server back", timeout: 30) { run.stderr.contains("is back after") }
        let resumed = try await run.lines.first("mid lit again", after: lost, timeout: 30) {
            PulseInputTests.parse($0).map { $0.mid > 0.8 } ?? false
        }
        // Measured from 2 s after the tone is back rather than 1 s: the restarted pipewire-pulse and its new
        // streams are still being linked by wireplumber then, and a dropout there (a click, which lights every band)
        // was seen once in a clean CI run at 1.4 s.
        let resumedFrames = try await PulseInputTests.frames(run, after: resumed.index + 100, seconds: 1)
        #expect(resumedFrames.allSatisfy { $0.mid > 0.8 && $0.bass < 0.05 }, "\(resumedFrames.filter { !($0.mid > 0.8 && $0.bass < 0.05) }.map { $0.t })")
    }
}
