import Foundation
import Testing
import TestSupport

/// `lightshow watch` following a real MPD, in a real terminal: the toolbar shows MPD's title and state, and the
/// user's keys are forwarded to MPD.
@Suite(.serialized, .tags(.tmux, .mpd)) struct WatchMPDTests {
    static let deadline = 30.0

    private func start(_ arguments: String, state: TemporaryDirectory) throws -> TmuxSession {
        try FileManager.default.createDirectory(atPath: state.file("lightshow"), withIntermediateDirectories: true)
        try state.write("lightshow/help-shown", Data())
        return try TmuxSession(
            columns: 160, rows: 48,
            environment: ["COLORTERM": "truecolor", "TERM": "screen", "XDG_STATE_HOME": state.path, "NO_COLOR": ""],
            command: "'\(LightshowProcess.executableURL.path)' watch \(arguments)"
        )
    }

    private func lastLine(_ tmux: TmuxSession) -> String {
        tmux.text().split(separator: "\n", omittingEmptySubsequences: false).dropLast().last.map(String.init) ?? ""
    }

    /// MPD's play, pause and stop show in the toolbar: ▶ and the title, ⏸, then no toolbar at all.
    private func followsMPD(_ tmux: TmuxSession, _ mpd: MPDServer) async throws {
        // MPD is stopped: its word is the truth, so the toolbar is collapsed even though the demo plays.
        #expect(await Wait.until(within: Self.deadline) {
            let text = tmux.text()
            return tmux.display("#{alternate_on}") == "1" && !text.contains("▶") && !text.contains("Demo")
        }, "collapsed toolbar while MPD is stopped: \(tmux.text())")
        try mpd.mpc("play")
        #expect(await Wait.until(within: Self.deadline) { lastLine(tmux).contains("▶ Test Tone") },
                "▶ and MPD's title: \(lastLine(tmux))")
        try mpd.mpc("pause")
        #expect(await Wait.until(within: Self.deadline) { lastLine(tmux).contains("⏸ Test Tone") },
                "⏸ after mpc pause: \(lastLine(tmux))")
        try mpd.mpc("stop")
        #expect(await Wait.until(within: Self.deadline) {
            let text = tmux.text()
            return !text.contains("Test Tone") && !text.contains("▶") && !text.contains("⏸")
        }, "collapsed after mpc stop: \(lastLine(tmux))")
    }

    @Test func watchMPDFlagShowsMPDsTitleAndState() async throws {
        let mpd = try await MPDServer.withTestTracks()
        let state = try TemporaryDirectory("watch-mpd")
        let tmux = try start("--input demo --mpd \(mpd.socketPath)", state: state)
        try await followsMPD(tmux, mpd)
        try tmux.send("q")
        #expect(await Wait.until(within: Self.deadline) { tmux.text().contains("EXIT=0") })
    }

    @Test func mpdAddressInTheConfigIsFollowedWithoutAFlag() async throws {
        let mpd = try await MPDServer.withTestTracks()
        let state = try TemporaryDirectory("watch-mpd-config")
        let config = try state.write("lightshow.toml", Data("""
            [mpd]
            address = "\(mpd.socketPath)"
            """.utf8))
        let tmux = try start("--input demo --config \(config)", state: state)
        try await followsMPD(tmux, mpd)
        try tmux.send("q")
    }

    /// Space in `watch` pauses MPD itself, and p plays it again: the keys reach the player.
    @Test func keysAreForwardedToMPD() async throws {
        let mpd = try await MPDServer.withTestTracks()
        let state = try TemporaryDirectory("watch-mpd-keys")
        let tmux = try start("--input demo --mpd \(mpd.address)", state: state)
        try mpd.mpc("play")
        #expect(await Wait.until(within: Self.deadline) { lastLine(tmux).contains("▶ Test Tone") },
                "▶ after mpc play: \(lastLine(tmux))")
        try tmux.send("Space")
        #expect(await Wait.until(within: Self.deadline) {
            ((try? mpd.mpc("status")) ?? "").contains("[paused]")
        }, "MPD paused by the space key: \((try? mpd.mpc("status")) ?? "")")
        #expect(await Wait.until(within: Self.deadline) { lastLine(tmux).contains("⏸ Test Tone") },
                "⏸ after the space key: \(lastLine(tmux))\n\(tmux.text())")
        try tmux.send("p")
        #expect(await Wait.until(within: Self.deadline) {
            ((try? mpd.mpc("status")) ?? "").contains("[playing]")
        }, "MPD playing again after p")
        try tmux.send("s")
        #expect(await Wait.until(within: Self.deadline) {
            !((try? mpd.mpc("status")) ?? "[playing]").contains("[playing]")
        }, "MPD stopped by s")
        try tmux.send("q")
    }
}
