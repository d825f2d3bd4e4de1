import Foundation
import LightShowCore
@testable import LightShowNowPlaying
import Logging
import Testing
import TestSupport

/// The MPD client against a real MPD that each test starts on its own port, socket and music directory.
@Suite(.serialized, .tags(.mpd)) struct MPDClientTests {
    static func server(password: String? = nil) async throws -> MPDServer {
        try await MPDServer.withTestTracks(password: password)
    }

    func client(_ address: String, password: String = "") throws -> MPDClient {
        let client = try MPDClient(
            address: try MPDAddress(parsing: address), password: password,
            backoff: ReopenBackoff(initial: 0.05, maximum: 0.5)
        )
        client.start()
        return client
    }

    static func state(_ state: PlaybackState, title: String? = nil) -> (NowPlayingEvent) -> Bool {
        { event in
            guard case .status(let status) = event else { return false }
            return status.state == state && (title == nil || status.title == title)
        }
    }

    /// A real MPD playing its first track, and a client that has seen it play (the index of that event).
    func followingPlayingMPD() async throws -> (MPDServer, MPDClient, StreamRecorder<NowPlayingEvent>, Int) {
        let server = try await Self.server()
        let client = try client(server.address)
        let events = StreamRecorder(client.events)
        try server.mpc("play", "1")
        let playing = try await events.first("playing", where: Self.state(.playing, title: "Test Tone")).index
        return (server, client, events, playing)
    }

    @Test func followsPlayPauseStopWithinTheLatencyBudget() async throws {
        let server = try await Self.server()
        let client = try client(server.address)
        defer { client.stop() }
        let events = StreamRecorder(client.events)
        var seen = try await events.first("stopped on connect", where: Self.state(.stopped)).index

        try server.mpc("play", "1")
        var sent = ContinuousClock.now
        var (index, arrival) = try await events.first("playing 'Test Tone'", after: seen, where: Self.state(.playing, title: "Test Tone"))
        #expect(arrival.time - sent < .milliseconds(200), "MPD play reached the client after \(arrival.time - sent)")
        guard case .status(let playing) = arrival.element else { return }
        #expect(playing.duration.map { abs($0 - 60) < 0.5 } == true)
        #expect(playing.elapsed.map { $0 >= 0 && $0 < 60 } == true)
        seen = index

        try server.mpc("pause")
        sent = ContinuousClock.now
        (index, arrival) = try await events.first("paused", after: seen, where: Self.state(.paused, title: "Test Tone"))
        #expect(arrival.time - sent < .milliseconds(200))
        seen = index

        try server.mpc("stop")
        sent = ContinuousClock.now
        (index, arrival) = try await events.first("stopped", after: seen, where: Self.state(.stopped))
        #expect(arrival.time - sent < .milliseconds(200))
        seen = index

        // An untagged file falls back to its file name.
        try server.mpc("play", "2")
        try await events.first("playing beat.wav", after: seen, where: Self.state(.playing, title: "beat.wav"))
    }

    @Test func reconnectsAfterMPDIsKilledAndRestarted() async throws {
        let (server, client, events, playing) = try await followingPlayingMPD()
        defer { client.stop() }
        var seen = playing

        server.kill()
        seen = try await events.first("connection lost", after: seen) {
            if case .lost = $0 { return true } else { return false }
        }.index
        try await server.start()
        // A restarted MPD without a state file comes back stopped; the client finds it by itself.
        seen = try await events.first("reconnected", after: seen, where: Self.state(.stopped)).index
        try server.mpc("add", "tone.flac")
        try server.mpc("play")
        try await events.first("playing after reconnect", after: seen, where: Self.state(.playing, title: "Test Tone"))
        // One `.lost` per outage, however many retries it took.
        #expect(events.elements.filter { if case .lost = $0 { true } else { false } }.count == 1)
    }

    /// A forwarded command breaks into `idle`, reaches MPD, and the client reads the new state over the same
    /// connection: the command's wake-up must not end the wait for `noidle`'s reply too.
    @Test func forwardedCommandsReachMPDOverTheSameConnection() async throws {
        let (server, client, events, playing) = try await followingPlayingMPD()
        defer { client.stop() }
        var seen = playing

        client.forward(.toggle)
        seen = try await events.first("paused by toggle", after: seen, where: Self.state(.paused, title: "Test Tone")).index
        #expect(try server.mpc("status").contains("[paused]"))
        client.forward(.toggle)
        seen = try await events.first("playing again by toggle", after: seen, where: Self.state(.playing)).index
        client.forward(.stop)
        try await events.first("stopped", after: seen, where: Self.state(.stopped))
        #expect(events.elements.allSatisfy { if case .lost = $0 { false } else { true } },
                "the connection was dropped: \(events.elements)")
    }

    @Test func connectsOverTheUnixSocketWithAPassword() async throws {
        let server = try await Self.server(password: "s3cret word")
        let client = try client(server.socketPath, password: "s3cret word")
        defer { client.stop() }
        let events = StreamRecorder(client.events)
        try server.mpc("play", "1", password: "s3cret word")
        try await events.first("playing over the socket", where: Self.state(.playing, title: "Test Tone"))
        #expect(!events.elements.contains { if case .lost = $0 { true } else { false } })
    }

    @Test func aWrongPasswordIsReportedAndRetried() async throws {
        let server = try await Self.server(password: "right")
        let client = try client(server.address, password: "wrong")
        defer { client.stop() }
        let events = StreamRecorder(client.events)
        let lost = try await events.first("password refused") {
            if case .lost(let why) = $0 { return why.contains("ACK") } else { return false }
        }
        #expect("\(lost.arrival.element)".contains("password"))
        _ = server
    }

    @Test func unreachableMPDIsReportedOnceAndStopEndsTheStream() async throws {
        let port = try MPDServer.freePort()
        let client = try client("127.0.0.1:\(port)")
        let events = StreamRecorder(client.events)
        try await events.first("unreachable") { if case .lost = $0 { true } else { false } }
        client.stop()
        try await waitFor("events to finish", timeout: 30) { events.isFinished }
        #expect(events.elements.count == 1)
    }
}
