import Foundation
import LightShowCore
import Testing
import TestSupport
@testable import LightShowNowPlaying

/// MPD as a hostile peer (a fake server): a reply that never ends, numbers no song has, titles that try to drive
/// the terminal, a password that would inject a command. The client reports, reconnects and never trusts them.
@Suite struct HostileMPDTests {
    func events(from server: ScriptedServer) throws -> (MPDClient, StreamRecorder<NowPlayingEvent>) {
        try MPDClientFaultTests().events(from: server)
    }

    @Test func aReplyWithoutEndIsCappedAndTheClientReconnects() async throws {
        // 5 MB of `key: value` lines and no OK, for every command.
        let flood = String(repeating: "key: value value value value value value\n", count: 120_000)
        let server = try ScriptedServer(greeting: "OK MPD 0.23.0\n") { _ in flood }
        let (client, events) = try events(from: server)
        defer { client.stop() }
        try await events.first("a capped reply") {
            if case .lost(let why) = $0 { why.contains("reply longer than") } else { false }
        }
        try await waitFor("a reconnect", timeout: 30) { server.connections >= 2 }
    }

    @Test func numbersNoSongHasAndControlCharactersInTitlesAreDisarmed() async throws {
        let server = try ScriptedServer(greeting: "OK MPD 0.23.0\n") { command in
            switch command {
            case "status": "state: play\nelapsed: 1e300\nduration: nan\nOK\n"
            case "currentsong": "file: a\u{1B}[2J.flac\nTitle: Song \u{1B}]0;owned\u{07}\u{9B}31m\nOK\n"
            default: ""
            }
        }
        let (client, events) = try events(from: server)
        defer { client.stop() }
        let event = try await events.first("a status") { if case .status = $0 { true } else { false } }
        guard case .status(let status) = event.arrival.element else { return }
        #expect(status.state == .playing)
        #expect(status.elapsed == nil && status.duration == nil)
        #expect(status.title == "Song ]0;owned31m", "\(String(describing: status.title))")
        #expect(Scene.formatElapsed(1e300) == "277777777:46:40")
    }

    @Test func aPasswordWithALineBreakIsRefusedBeforeAnythingIsSent() throws {
        #expect(throws: LightShowError.self) {
            _ = try MPDClient(address: .tcp(host: "127.0.0.1", port: 6600), password: "x\npassword y")
        }
    }
}
