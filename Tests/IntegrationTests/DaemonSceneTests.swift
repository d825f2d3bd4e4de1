import Foundation
import LightShowControl
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Viewers draw the daemon's scene: a reload that changes a colour changes what an attached `watch --connect`
/// draws, and tuning in one viewer tunes the daemon (checked as its config would be) and every other viewer.
@Suite(.serialized, .tags(.tmux)) struct DaemonSceneTests {
    static func config(bassColor: String) -> Data {
        Data("""
            [input]
            source = "demo"
            [bands.bass]
            color = "\(bassColor)"

            """.utf8)
    }

    static func status(_ daemon: DaemonProcess) -> JSONValue? {
        (try? ControlClient(path: daemon.socketPath, timeoutSeconds: 30).request("status"))?["result"]
    }

    static func viewer(_ daemon: DaemonProcess, _ directory: TemporaryDirectory, name: String) throws -> TmuxSession {
        try FileManager.default.createDirectory(atPath: directory.file("\(name)/lightshow"), withIntermediateDirectories: true)
        _ = try directory.write("\(name)/lightshow/help-shown", Data())
        return try TmuxSession(
            columns: 120, rows: 36,
            environment: ["COLORTERM": "truecolor", "TERM": "screen", "XDG_STATE_HOME": directory.file(name), "NO_COLOR": ""],
            command: "'\(LightshowProcess.executableURL.path)' watch --fps 20 --connect \(daemon.socketPath)"
        )
    }

    /// Pure red or pure green among the cells: the bass light drawn in that colour (at any level above a third).
    static func shows(_ screen: PaneScreen, red: Bool) -> Bool {
        let count = screen.extent { pixel in
            red ? pixel.r > 80 && pixel.g < 30 && pixel.b < 45 : pixel.g > 80 && pixel.r < 30 && pixel.b < 45
        }?.count ?? 0
        return count > 50
    }

    @Test func aReloadedColourIsDrawnByAnAttachedViewer() async throws {
        let directory = try TemporaryDirectory("ls-daemon-scene")
        let file = try directory.write("lightshow.toml", Self.config(bassColor: "#FF0000"))
        let daemon = try DaemonProcess(["--config", file], directory: directory)
        #expect(await daemon.waitForSocket(), "\(daemon.log)")
        // The viewer's own config says nothing about colours: what it draws comes from the daemon.
        let terminal = try Self.viewer(daemon, directory, name: "viewer")
        #expect(await OffPool.until(timeout: 30) { Self.shows(terminal.screen(), red: true) }, "a red bass light")
        try Self.config(bassColor: "#00FF00").write(to: URL(fileURLWithPath: file))
        let reload = try await daemon.ctl(["reload"])
        #expect(reload.status == 0, "\(reload.stderr)")
        #expect(await OffPool.until(timeout: 30) {
            let screen = terminal.screen()
            return Self.shows(screen, red: false) && !Self.shows(screen, red: true)
        }, "the bass light turns green after the reload")
        try terminal.send("q")
        daemon.send(signal: SIGTERM)
        #expect(await daemon.waitForExit(timeout: 10) == 0, "\(daemon.log)")
    }

    @Test func tuningInAViewerTunesTheDaemonAndEveryViewer() async throws {
        let directory = try TemporaryDirectory("ls-daemon-tune")
        let file = try directory.write("lightshow.toml", Self.config(bassColor: "#FF3B30"))
        let daemon = try DaemonProcess(["--config", file], directory: directory)
        #expect(await daemon.waitForSocket(), "\(daemon.log)")
        let tuner = try Self.viewer(daemon, directory, name: "tuner")
        let watcher = try Self.viewer(daemon, directory, name: "watcher")
        #expect(await OffPool.until(timeout: 30) { tuner.text().contains("▶") && watcher.text().contains("▶") })
        // The second viewer opens its tuning panel to show the bass range.
        try watcher.send("t")
        #expect(await OffPool.until(timeout: 30) { watcher.text().contains("Tune Bass") }, "\(watcher.text())")
        // The first raises the bass band's upper knob one step (250 → 315 Hz).
        try tuner.send("t")
        try tuner.send("Tab")
        try tuner.send("Right")
        #expect(await OffPool.until(timeout: 30) {
            Self.status(daemon)?["bands"]?["bass"]?["upper"]?.numberValue == 315
        }, "ctl status shows the tuned range: \(String(describing: Self.status(daemon)?["bands"]))")
        #expect(await OffPool.until(timeout: 30) { watcher.text().contains("315 Hz") }, "the other viewer: \(watcher.text())")
        try tuner.send("q")
        #expect(await OffPool.until(timeout: 30) { tuner.text().contains("upper = 315") }, "the TOML snippet on quit: \(tuner.text())")
        try watcher.send("q")
        daemon.send(signal: SIGTERM)
        #expect(await daemon.waitForExit(timeout: 10) == 0, "\(daemon.log)")
    }

    @Test func setBandIsCheckedAsTheConfigIs() async throws {
        let directory = try TemporaryDirectory("ls-daemon-setband")
        let daemon = try DaemonProcess(["--input", "demo"], directory: directory)
        #expect(await daemon.waitForSocket(), "\(daemon.log)")
        let client = try ControlClient(path: daemon.socketPath, timeoutSeconds: 30)
        let outside = try client.request("set-band", arguments: ["band": "bass", "lower": 5])
        #expect(outside["ok"] == false)
        #expect(outside["error"]?.stringValue?.contains("bands.bass.lower") == true, "\(outside)")
        let crossed = try client.request("set-band", arguments: ["band": "mid", "lower": 3000, "upper": 1000])
        #expect(crossed["ok"] == false && crossed["error"]?.stringValue?.contains("below upper") == true, "\(crossed)")
        let unknown = try client.request("set-band", arguments: ["band": "sub", "lower": 30])
        #expect(unknown["ok"] == false && unknown["error"]?.stringValue?.contains("bass, mid, treble") == true, "\(unknown)")
        let good = try client.request("set-band", arguments: ["band": "treble", "lower": 5000, "upper": 12000])
        #expect(good["ok"] == true, "\(good)")
        #expect(Self.status(daemon)?["bands"]?["treble"]?["lower"]?.numberValue == 5000)
        #expect(Self.status(daemon)?["bands"]?["bass"]?["lower"]?.numberValue == 20, "the rejected change left bass alone")
        daemon.send(signal: SIGTERM)
        #expect(await daemon.waitForExit(timeout: 10) == 0, "\(daemon.log)")
    }
}
