import LightShowSystem
import Foundation
import Testing
import TestSupport

/// `lightshow watch` in a real terminal: tmux on a private socket, read back with `capture-pane -e`.
@Suite(.serialized, .tags(.tmux)) struct WatchTerminalTests {
    /// Colour tests for the three lights at a high level over the dark default background.
    static let isBass: @Sendable (PaneScreen.RGB) -> Bool = { $0.r > 150 && $0.g < 120 && $0.b < 120 }
    static let isMid: @Sendable (PaneScreen.RGB) -> Bool = { $0.g > 130 && $0.r < 120 && $0.b < 150 }
    static let isTreble: @Sendable (PaneScreen.RGB) -> Bool = { $0.b > 180 && $0.g > 90 && $0.r < 100 }
    static let deadline = 30.0

    /// Starts `watch` with `arguments` in a 160×48 truecolor pane; help already seen unless `firstRun`.
    private func start(_ arguments: String, state: TemporaryDirectory, firstRun: Bool = false, columns: Int = 160, rows: Int = 48) throws -> TmuxSession {
        if !firstRun {
            try FileManager.default.createDirectory(atPath: state.file("lightshow"), withIntermediateDirectories: true)
            try state.write("lightshow/help-shown", Data())
        }
        return try TmuxSession(
            columns: columns, rows: rows,
            environment: ["COLORTERM": "truecolor", "TERM": "screen", "XDG_STATE_HOME": state.path, "NO_COLOR": ""],
            command: "'\(LightshowProcess.executableURL.path)' watch \(arguments)"
        )
    }

    /// 100 Hz + 1 kHz + 8 kHz: each light steadily bright.
    private func toneFile(in directory: TemporaryDirectory, seconds: Double = 120) throws -> String {
        let parts = [100.0, 1000, 8000].map { Signals.sine(frequency: $0, seconds: seconds, amplitude: 0.25) }
        let mix = (0..<parts[0].count).map { parts[0][$0] + parts[1][$0] + parts[2][$0] }
        return try directory.write("tones.wav", Signals.wav(mix, channels: 1, sampleRate: 48_000))
    }

    static func isRound(_ e: (minX: Int, maxX: Int, minY: Int, maxY: Int, count: Int)) -> Bool {
        abs((e.maxX - e.minX) - (e.maxY - e.minY)) <= 2
    }

    private func lastLine(_ tmux: TmuxSession) -> String {
        tmux.text().split(separator: "\n", omittingEmptySubsequences: false).dropLast().last.map(String.init) ?? ""
    }

    @Test func threeRoundLightsInTheirColours() async throws {
        let state = try TemporaryDirectory("watch-state")
        let tmux = try start("--input \(try toneFile(in: state))", state: state)
        var extents: [(minX: Int, maxX: Int, minY: Int, maxY: Int, count: Int)] = []
        let lit = await Wait.until(within: Self.deadline) {
            let screen = tmux.screen()
            extents = [Self.isBass, Self.isMid, Self.isTreble].compactMap { screen.extent(where: $0) }
            // A capture can catch a frame half drawn while the levels move, so poll for a whole one.
            return extents.count == 3 && extents.allSatisfy { $0.count > 300 && Self.isRound($0) }
        }
        #expect(lit, "three lit lights in red, green and blue: \(extents)")
        guard extents.count == 3 else { return }
        for extent in extents {
            let width = extent.maxX - extent.minX + 1, height = extent.maxY - extent.minY + 1
            // Round: the columns across equal the pixel rows down (two per terminal row).
            #expect(abs(width - height) <= 2, "width \(width) px vs height \(height) px")
            #expect(width > 30)
        }
        #expect(extents[0].maxX < extents[1].minX && extents[1].maxX < extents[2].minX, "bass, mid, treble left to right")
    }

    @Test func toolbarFollowsPlaybackKeys() async throws {
        let state = try TemporaryDirectory("watch-state")
        let tmux = try start("--input demo", state: state)
        #expect(await Wait.until(within: Self.deadline) { lastLine(tmux).contains("▶ Demo") })
        try tmux.send("Space")
        #expect(await Wait.until(within: Self.deadline) { lastLine(tmux).contains("⏸ Demo") })
        try tmux.send("p")
        #expect(await Wait.until(within: Self.deadline) { lastLine(tmux).contains("▶ Demo") })
        try tmux.send("s")
        #expect(await Wait.until(within: Self.deadline) {
            let text = tmux.text()
            return !text.contains("Demo") && !text.contains("▶") && !text.contains("⏸")
        })
        try tmux.send("q")
        #expect(await Wait.until(within: Self.deadline) { tmux.text().contains("EXIT=0") })
        #expect(tmux.display("#{alternate_on} #{cursor_flag}") == "0 1")
    }

    @Test func helpOverlayOnFirstRunPointsBelowALightAtTheTop() async throws {
        let state = try TemporaryDirectory("watch-state")
        // 160×30: the lights fill the height, so the bass light touches the top and its balloon must go below.
        let tmux = try start("--input demo", state: state, firstRun: true, rows: 30)
        // First run: the overlay opens by itself on the bass light. A capture may catch a frame half drawn, so the
        // balloon is waited for whole: its text, its box and its arrow.
        var text = ""
        #expect(await Wait.until(within: Self.deadline) {
            text = tmux.text()
            return text.contains("Bass · 20–250 Hz") && text.contains("╭") && (text.contains("▲") || text.contains("▼"))
        }, "\(text)")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let arrowRow = lines.firstIndex { $0.contains("▲") }
        let boxRow = lines.firstIndex { $0.contains("╭") }
        #expect(arrowRow != nil && boxRow == arrowRow.map { $0 + 1 }, "▲ right above the balloon:\n\(text)")
        #expect(!text.contains("▼"))
        #expect(FileManager.default.fileExists(atPath: state.file("lightshow/help-shown")))
        // Any key: the next light, then the toolbar; Esc closes.
        try tmux.send("x")
        #expect(await Wait.until(within: Self.deadline) { tmux.text().contains("Mid ·") })
        try tmux.send("x", "x")
        // The toolbar is at the bottom: its balloon sits above it, pointing down (waited for whole, as above).
        #expect(await Wait.until(within: Self.deadline) { tmux.text().contains("space play/pause") && tmux.text().contains("▼") },
                "\(tmux.text())")
        try tmux.send("Escape")
        #expect(await Wait.until(within: Self.deadline) { !tmux.text().contains("╭") })
        try tmux.send("?")
        #expect(await Wait.until(within: Self.deadline) { tmux.text().contains("Bass · 20–250 Hz") })
        try tmux.send("q", "q", "q", "q", "q")
        #expect(await Wait.until(within: Self.deadline) { tmux.text().contains("EXIT=0") })
    }

    @Test func helpDimsEverythingButTheExplainedLight() async throws {
        let state = try TemporaryDirectory("watch-state")
        let tmux = try start("--input \(try toneFile(in: state))", state: state, firstRun: true)
        // On the bass step: the bass light at full brightness, the other two dimmed below their colour tests.
        #expect(await Wait.until(within: Self.deadline) {
            let screen = tmux.screen()
            return (screen.extent(where: Self.isBass)?.count ?? 0) > 300
                && screen.extent(where: Self.isMid) == nil && screen.extent(where: Self.isTreble) == nil
        })
        try tmux.send("Space")
        #expect(await Wait.until(within: Self.deadline) {
            let screen = tmux.screen()
            return (screen.extent(where: Self.isMid)?.count ?? 0) > 300
                && screen.extent(where: Self.isBass) == nil && screen.extent(where: Self.isTreble) == nil
        })
        // Closed: all three bright again.
        try tmux.send("Escape")
        #expect(await Wait.until(within: Self.deadline) {
            let screen = tmux.screen()
            return [Self.isBass, Self.isMid, Self.isTreble].allSatisfy { (screen.extent(where: $0)?.count ?? 0) > 300 }
        })
    }

    @Test func colourDepthFollowsTheFlagAndNoColor() async throws {
        let state = try TemporaryDirectory("watch-state")
        let palette = try start("--input demo --color 256", state: state)
        #expect(await Wait.until(within: Self.deadline) {
            let raw = (try? palette.tmux(["capture-pane", "-e", "-p", "-t", "s"])) ?? ""
            return raw.contains("8;5;") && !raw.contains("8;2;")
        }, "256-colour codes only")
        let plainState = try TemporaryDirectory("watch-state")
        try FileManager.default.createDirectory(atPath: plainState.file("lightshow"), withIntermediateDirectories: true)
        try plainState.write("lightshow/help-shown", Data())
        let plain = try TmuxSession(
            columns: 160, rows: 48,
            environment: ["COLORTERM": "truecolor", "NO_COLOR": "1", "XDG_STATE_HOME": plainState.path],
            command: "'\(LightshowProcess.executableURL.path)' watch --input \(try toneFile(in: plainState))"
        )
        #expect(await Wait.until(within: Self.deadline) {
            let raw = (try? plain.tmux(["capture-pane", "-e", "-p", "-t", "s"])) ?? ""
            return raw.contains("█") && !raw.contains("8;2;") && !raw.contains("8;5;")
        }, "NO_COLOR: shades, no colour codes")
    }

    @Test func tuningSliderMovesClampsAndRetunesTheAnalyzer() async throws {
        let state = try TemporaryDirectory("watch-state")
        let tmux = try start("--input \(try toneFile(in: state))", state: state)
        var before = 0
        #expect(await Wait.until(within: Self.deadline) {
            before = tmux.screen().extent(where: Self.isBass)?.count ?? 0
            return before > 300
        })
        try tmux.send("t", "Left", "Left")
        #expect(await Wait.until(within: Self.deadline) { tmux.text().contains("Tune Bass: ›20 Hz –  250 Hz") })
        // 20 → 25 → … → 160 Hz: the 100 Hz tone is out of the band, so the bass light goes dark.
        for _ in 0..<9 { try tmux.send("Right") }
        #expect(await Wait.until(within: Self.deadline) { tmux.text().contains("›160 Hz") })
        #expect(await Wait.until(within: Self.deadline) {
            (tmux.screen().extent(where: Self.isBass)?.count ?? 0) < before / 10
        }, "the bass light dims once its band leaves the tone")
        // The lower knob stops one step below the upper one.
        for _ in 0..<6 { try tmux.send("Right") }
        #expect(await Wait.until(within: Self.deadline) { tmux.text().contains("›200 Hz –  250 Hz") })
        try tmux.send("q")
        #expect(await Wait.until(within: Self.deadline) { tmux.text().contains("EXIT=0") })
        #expect(tmux.text().contains("[bands.bass]\nlower = 200\nupper = 250"))
    }

    @Test func sigtermRestoresTheTerminal() async throws {
        let state = try TemporaryDirectory("watch-state")
        let tmux = try start("--input demo", state: state)
        #expect(await Wait.until(within: Self.deadline) { tmux.display("#{alternate_on}") == "1" && lastLine(tmux).contains("Demo") })
        #expect(tmux.display("#{cursor_flag}") == "0")
        let pid = try #require(tmux.childProcess())
        kill(pid, SIGTERM)
        #expect(await Wait.until(within: Self.deadline) { tmux.text().contains("EXIT=143") })
        #expect(tmux.display("#{alternate_on} #{cursor_flag}") == "0 1")
    }

    /// `watch --input demo` started from an interactive shell with job control, as a user would have, once it
    /// shows; the state directory goes with it.
    private func watchFromAShell() async throws -> (TmuxSession, TemporaryDirectory) {
        let state = try TemporaryDirectory("watch-state")
        try FileManager.default.createDirectory(atPath: state.file("lightshow"), withIntermediateDirectories: true)
        try state.write("lightshow/help-shown", Data())
        let tmux = try TmuxSession(
            columns: 120, rows: 36,
            environment: ["COLORTERM": "truecolor", "XDG_STATE_HOME": state.path, "PS1": "$ "],
            command: "bash --norc --noprofile -i"
        )
        try tmux.send("'\(LightshowProcess.executableURL.path)' watch --input demo", "Enter")
        #expect(await Wait.until(within: Self.deadline) { tmux.display("#{alternate_on} #{cursor_flag}") == "1 0" })
        return (tmux, state)
    }

    @Test func suspendAndResumeGiveTheTerminalBackAndTakeItAgain() async throws {
        let (tmux, state) = try await watchFromAShell()
        defer { withExtendedLifetime(state) {} }
        try tmux.send("C-z")
        #expect(await Wait.until(within: Self.deadline) { tmux.text().contains("Stopped") })
        #expect(tmux.display("#{alternate_on} #{cursor_flag}") == "0 1")
        try tmux.send("fg", "Enter")
        #expect(await Wait.until(within: Self.deadline) {
            tmux.display("#{alternate_on} #{cursor_flag}") == "1 0" && lastLine(tmux).contains("▶ Demo")
        })
        try tmux.send("q")
        #expect(await Wait.until(within: Self.deadline) { tmux.display("#{alternate_on} #{cursor_flag}") == "0 1" })
    }

    /// A terminal that stops reading (here `script`, the only reader of watch's terminal, is stopped) must not
    /// keep SIGTERM from ending watch: the frame it was writing is given up, and it dies by the signal.
    @Test func sigtermEndsWatchWhileItsTerminalReadsNothing() async throws {
        let state = try TemporaryDirectory("watch-state")
        try FileManager.default.createDirectory(atPath: state.file("lightshow"), withIntermediateDirectories: true)
        try state.write("lightshow/help-shown", Data())
        let tmux = try TmuxSession(
            columns: 160, rows: 48, environment: ["COLORTERM": "truecolor", "XDG_STATE_HOME": state.path],
            command: "script -qfec \"'\(LightshowProcess.executableURL.path)' watch --input demo\" /dev/null"
        )
        #expect(await Wait.until(within: Self.deadline) { lastLine(tmux).contains("▶ Demo") })
        let script = try #require(tmux.childProcess())
        let watch = try #require(ProcessProbe.descendant(of: script, named: "lightshow"))
        kill(script, SIGSTOP)
        defer { kill(script, SIGCONT) }
        // Whatever room the pseudo-terminal between them has left is taken, so watch's next write finds none.
        #expect(Self.fillTerminal(of: watch) > 0, "watch's terminal fills up")
        let signalled = Date()
        kill(watch, SIGTERM)
        #expect(await Wait.until(within: 10) { ProcessProbe.hasExited(watch) }, "watch ends")
        #expect(Date().timeIntervalSince(signalled) < 5)
        let status = ProcessProbe.waitStatus(ofZombie: watch)
        #expect(status.map { $0 & 0x7F } == SIGTERM, "killed by SIGTERM: wait status \(String(describing: status))")
    }

    /// Writes spaces to the terminal on standard output of `pid` until it takes no more; returns how many went.
    private static func fillTerminal(of pid: pid_t) -> Int {
        guard let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/1") else { return 0 }
        let fd = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else { return 0 }
        defer { close(fd) }
        let spaces = [UInt8](repeating: 0x20, count: 4096)
        var total = 0
        // Bounded, in case something reads it after all.
        while total < 64 << 20 {
            guard case .wrote(let written) = spaces.withUnsafeBytes({ try? FileDescriptorIO.writeSome(fd, $0) }) else { break }
            total += written
        }
        return total
    }

    /// The pane's terminal settings as `stty -a` words.
    private func terminalSettings(_ tmux: TmuxSession) -> Set<String> {
        let tty = tmux.display("#{pane_tty}")
        let text = (try? ExternalTool.run("stty", ["-F", tty, "-a"])) ?? ""
        return Set(text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ";" }).map(String.init))
    }

    /// A stop we didn't arrange (SIGSTOP) hands the terminal to the shell, which puts its own settings back; on
    /// `fg` watch takes it again: raw keys, alternate screen, hidden cursor.
    @Test func continuedAfterAStopFromOutsideWatchTakesTheTerminalBack() async throws {
        let (tmux, state) = try await watchFromAShell()
        defer { withExtendedLifetime(state) {} }
        #expect(terminalSettings(tmux).isSuperset(of: ["-icanon", "-echo"]))
        let shell = try #require(Int32(tmux.display("#{pane_pid}")))
        let watch = try #require(ProcessProbe.descendant(of: shell, named: "lightshow"))
        kill(watch, SIGSTOP)
        #expect(await Wait.until(within: Self.deadline) { tmux.text().contains("Stopped") })
        try tmux.send("fg", "Enter")
        #expect(await Wait.until(within: Self.deadline) {
            terminalSettings(tmux).isSuperset(of: ["-icanon", "-echo"])
                && tmux.display("#{alternate_on} #{cursor_flag}") == "1 0" && lastLine(tmux).contains("▶ Demo")
        }, "raw keys, alternate screen and hidden cursor again: \(terminalSettings(tmux).filter { $0.hasSuffix("icanon") || $0.hasSuffix("echo") })")
        try tmux.send("q")
        #expect(await Wait.until(within: Self.deadline) { tmux.display("#{alternate_on} #{cursor_flag}") == "0 1" })
    }

    @Test func resizeLaysTheSceneOutAgain() async throws {
        let state = try TemporaryDirectory("watch-state")
        let tmux = try start("--input \(try toneFile(in: state))", state: state)
        var wide: (minX: Int, maxX: Int, minY: Int, maxY: Int, count: Int)?
        #expect(await Wait.until(within: Self.deadline) {
            wide = tmux.screen().extent(where: Self.isTreble)
            return (wide?.count ?? 0) > 300
        })
        try tmux.resize(columns: 100, rows: 30)
        var narrow: (minX: Int, maxX: Int, minY: Int, maxY: Int, count: Int)?
        #expect(await Wait.until(within: Self.deadline) {
            narrow = tmux.screen().extent(where: Self.isTreble)
            guard let narrow, narrow.count > 100 else { return false }
            // Inside the new window and still round (a capture may catch a frame half drawn, so poll for it).
            return narrow.maxX < 100 && narrow.maxY < 60
                && abs((narrow.maxX - narrow.minX) - (narrow.maxY - narrow.minY)) <= 2
        }, "a round treble light inside the 100×30 window: \(String(describing: narrow))")
        if let wide, let narrow {
            #expect(narrow.maxX - narrow.minX < wide.maxX - wide.minX, "smaller after shrinking")
        }
        try tmux.resize(columns: 16, rows: 5)
        #expect(await Wait.until(within: Self.deadline) { tmux.text().contains("too small") })
    }

    /// The screen once it has stayed the same across a whole second of captures at `size`; nil if it never does.
    private func stableScreen(_ tmux: TmuxSession, size: String) async -> PaneScreen? {
        var last = tmux.screen()
        var unchanged = 0
        let still = await Wait.until(within: Self.deadline) {
            usleep(100_000)
            let now = tmux.screen()
            let same = now.rows.map { $0.map(\.background) } == last.rows.map { $0.map(\.background) }
            unchanged = same && tmux.display("#{pane_width}x#{pane_height}") == size ? unchanged + 1 : 0
            last = now
            return unchanged >= 10
        }
        return still ? last : nil
    }

    /// After `s` and the fade, the screen is exactly what a full redraw of the dark scene gives: no faint ghost of
    /// the lights survives the encoder's skipping of cells that barely moved.
    @Test func afterStopAndFadeTheLightsAreExactlyTheBackground() async throws {
        let state = try TemporaryDirectory("watch-state")
        let tmux = try start("--input \(try toneFile(in: state))", state: state)
        #expect(await Wait.until(within: Self.deadline) {
            let screen = tmux.screen()
            return [Self.isBass, Self.isMid, Self.isTreble].allSatisfy { (screen.extent(where: $0)?.count ?? 0) > 300 }
        }, "three lit lights")
        try tmux.send("s")
        // Stopped: the toolbar collapses and the lights fade out (1.5 s), then nothing changes.
        let faded = try #require(await stableScreen(tmux, size: "160x48"), "faded out and still")
        #expect(!faded.rows.contains { $0.contains { $0.character == "▶" } }, "no toolbar")
        // A full redraw of the same dark scene, after a resize away and back.
        try tmux.resize(columns: 120, rows: 40)
        _ = await stableScreen(tmux, size: "120x40")
        try tmux.resize(columns: 160, rows: 48)
        let fresh = try #require(await stableScreen(tmux, size: "160x48"), "redrawn at 160×48")
        var differing: [String] = []
        for row in 0..<48 {
            for column in 0..<160 {
                let (a, b) = (faded.cell(column: column, row: row), fresh.cell(column: column, row: row))
                if a?.background != b?.background || a?.character != b?.character
                    || (a?.character == "▀" && a?.foreground != b?.foreground) {
                    differing.append("(\(column),\(row)) \(String(describing: a?.background)) vs \(String(describing: b?.background))")
                }
            }
        }
        #expect(differing.isEmpty, "\(differing.count) cells differ from the background, e.g. \(differing.prefix(3)); rows \(Set(differing.map { $0.split(separator: ",")[1].prefix(while: { $0 != ")" }) }).sorted())")
        try tmux.send("q")
    }
}
