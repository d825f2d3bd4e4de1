import Foundation
import Testing
import TestSupport

/// `watch` asks a terminal whose TERM promises only a palette whether it shows direct colour: plain xterm (TERM=xterm,
/// no COLORTERM) answers and gets truecolor; tmux doesn't, and keeps the palette TERM gives, without delay or stray
/// bytes on the screen.
@Suite(.serialized, .tags(.xterm, .tmux)) struct WatchColourQueryTests {
    static func stateDirectory() throws -> TemporaryDirectory {
        let state = try TemporaryDirectory("watch-state")
        try FileManager.default.createDirectory(atPath: state.file("lightshow"), withIntermediateDirectories: true)
        try state.write("lightshow/help-shown", Data())
        return state
    }

    /// Distinct colours down the screen's left edge, where the terminal shows the scene's background: the gradient
    /// in truecolor has dozens of shades, a 16-colour palette a few.
    static func shadesDownTheLeftEdge(_ shot: DecodedPNG) -> Int {
        var shades = Set<[UInt8]>()
        for y in stride(from: 0, to: shot.height, by: 2) { shades.insert(shot.pixel(8, y)) }
        return shades.count
    }

    /// xterm as a person starts it, on a private Xvfb: TERM=xterm (terminfo: 8 colours) and no COLORTERM.
    func xtermShades(_ arguments: String) throws -> Int {
        let state = try Self.stateDirectory()
        let xterm = try XtermDisplay(
            environment: ["COLORTERM": "", "NO_COLOR": "", "XDG_STATE_HOME": state.path],
            command: ["env", "TERM=xterm", LightshowProcess.executableURL.path, "watch", "--input", "demo"] + arguments.split(separator: " ").map(String.init)
        )
        // Drawn once the bass light shows red (a new xterm is white at first). The lights move; the background down
        // the left edge stays.
        var drawn: DecodedPNG?
        _ = try Wait.until(timeout: 30) {
            let shot = try xterm.screenshot(in: state, name: "watch\(arguments.isEmpty ? "" : "-16").png")
            let red = (0..<shot.width).contains { x in
                let pixel = shot.pixel(x, shot.height / 3)
                return pixel[0] > 150 && pixel[1] < 120 && pixel[2] < 120
            }
            guard red else { return false }
            drawn = shot
            return true
        }
        return Self.shadesDownTheLeftEdge(try #require(drawn, "xterm drew the show"))
    }

    @Test func plainXtermAnswersAndGetsTruecolor() throws {
        let asked = try xtermShades("")
        // The same xterm told to use 16 colours (no question asked): what it got before it was asked.
        let palette = try xtermShades("--color 16")
        #expect(asked > 12, "truecolor's gradient: \(asked) shades")
        #expect(palette <= 6, "16 colours: \(palette) shades")
    }

    @Test func tmuxDoesNotAnswerAndKeepsThePaletteAtOnce() async throws {
        let state = try Self.stateDirectory()
        let started = ProcessInfo.processInfo.systemUptime
        let tmux = try TmuxSession(
            columns: 160, rows: 48,
            environment: ["COLORTERM": "", "TERM": "screen", "XDG_STATE_HOME": state.path, "NO_COLOR": ""],
            command: "'\(LightshowProcess.executableURL.path)' watch --input demo"
        )
        var raw = ""
        let drawn = await Wait.until(within: 30) {
            raw = (try? tmux.tmux(["capture-pane", "-e", "-p", "-t", "s"])) ?? ""
            return raw.contains("▀") || raw.contains("▄")
        }
        #expect(drawn, "the show is drawn: \(tmux.text())")
        #expect(ProcessInfo.processInfo.systemUptime - started < 10)
        // TERM=screen: the palette, as before the question was asked.
        #expect(raw.contains("\u{1B}[") && !raw.contains("8;2;"), "palette codes only")
        // tmux's answer to DA1 was taken, not shown.
        #expect(!tmux.text().contains("?1;2c") && !tmux.text().contains("$r"), "\(tmux.text())")
    }
}
