import Foundation
import LightShowControl
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Viewers attached to a running daemon: `watch --connect` in a real terminal (tmux) and `record --connect`.
@Suite(.tags(.tmux, .pulseAudio)) struct DaemonViewerTests {
    static func status(_ daemon: DaemonProcess) -> JSONValue? {
        (try? ControlClient(path: daemon.socketPath, timeoutSeconds: 30).request("status"))?["result"]
    }

    /// End to end: the daemon captures `alsa:pulse` from a PulseAudio null sink a tone plays into, a viewer
    /// attaches in tmux, `ctl pause` shows ⏸ there, and the viewer's keys reach the daemon.
    @Test func pausingTheDaemonShowsInAnAttachedViewer() async throws {
        let pulse = try PulseAudioServer()
        try await pulse.start()
        defer { pulse.stop() }
        let directory = try TemporaryDirectory("ls-daemon-e2e")
        let tone = try directory.write(
            "tone.wav", Signals.wav(Signals.interleave(Signals.sine(frequency: 100, seconds: 60), channels: 2), channels: 2, sampleRate: 48_000)
        )
        let daemon = try DaemonProcess(["--input", "alsa:pulse"], environment: pulse.clientEnvironment, directory: directory)
        #expect(await daemon.waitForSocket(), "\(daemon.log)")
        let player = try pulse.play(tone)
        defer { player.terminate() }
        // The tone reaches the daemon's analysis: bass lit, the show playing.
        let heard = await OffPool.until(timeout: 30) {
            guard let status = Self.status(daemon) else { return false }
            return status["state"] == "playing" && (status["levels"]?["bass"]?.numberValue ?? 0) > 0.5
        }
        #expect(heard, "\(String(describing: Self.status(daemon)))\n\(daemon.log)")

        let executable = LightshowProcess.executableURL.path
        // The first-run help walk would take the keys; mark it as seen.
        try FileManager.default.createDirectory(atPath: directory.file("state/lightshow"), withIntermediateDirectories: true)
        _ = try directory.write("state/lightshow/help-shown", Data())
        let terminal = try TmuxSession(
            columns: 120, rows: 36,
            environment: ["COLORTERM": "truecolor", "HOME": directory.path, "XDG_STATE_HOME": directory.file("state")],
            command: "\(executable) watch --fps 20 --connect \(daemon.socketPath)"
        )
        func shows(_ text: String) async -> Bool { await OffPool.until(timeout: 30) { terminal.text().contains(text) } }
        #expect(await shows("▶"), "\(terminal.text())")

        let pause = try await daemon.ctl(["pause"])
        #expect(pause.status == 0, "\(pause.stderr)")
        #expect(await shows("⏸"), "\(terminal.text())")

        // Keys in the viewer are commands to the daemon.
        try terminal.send("p")
        #expect(await OffPool.until(timeout: 30) { Self.status(daemon)?["state"] == "playing" })
        #expect(await shows("▶"), "\(terminal.text())")
        try terminal.send("Space")
        #expect(await OffPool.until(timeout: 30) { Self.status(daemon)?["state"] == "paused" })
        try terminal.send("s")
        #expect(await OffPool.until(timeout: 30) { Self.status(daemon)?["state"] == "stopped" })

        try terminal.send("q")
        #expect(await shows("EXIT=0"), "\(terminal.text())")
        #expect(await OffPool.until(timeout: 30) { Self.status(daemon)?["subscribers"] == 0 }, "the viewer quit and detached")
        daemon.send(signal: SIGTERM)
        #expect(await daemon.waitForExit(timeout: 10) == 0, "\(daemon.log)")
    }

    @Test func recordConnectWritesFramesOfTheStream() async throws {
        let directory = try TemporaryDirectory("ls-daemon-record")
        let daemon = try DaemonProcess(["--input", "demo"], directory: directory)
        #expect(await daemon.waitForSocket(), "\(daemon.log)")
        #expect(await OffPool.until(timeout: 30) { Self.status(daemon)?["state"] == "playing" })
        let out = directory.file("frames")
        let result = try await LightshowProcess.runDetached([
            "record", "--connect", daemon.socketPath, "--out", out, "--duration", "1.5s", "--fps", "10", "--size", "160x90",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("recorded 15 frames"), "\(result.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: out)
        #expect(names.filter { $0.hasSuffix(".png") }.count == 15)
        let log = try String(contentsOfFile: out + "/frames.jsonl", encoding: .utf8).split(separator: "\n")
        #expect(log.count == 15)
        // The demo is playing: the daemon's levels, not a dark placeholder.
        #expect(log.contains { $0.contains(#""state":"playing""#) }, "\(log.prefix(3))")
        let image = try DecodedPNG(path: out + "/frame_000014.png")
        #expect(image.width == 160 && image.height == 90)

        daemon.send(signal: SIGTERM)
        #expect(await daemon.waitForExit(timeout: 10) == 0)
        // With the daemon gone, --connect says so (66).
        let missing = try await LightshowProcess.runDetached(["record", "--connect", daemon.socketPath, "--out", directory.file("none"), "--duration", "1"])
        #expect(missing.status == 66 && missing.stderr.contains("no lightshow daemon is listening"), "\(missing.stderr)")
    }
}
