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

@Suite struct MPDClientFaultTests {
    func events(from server: ScriptedServer) throws -> (MPDClient, StreamRecorder<NowPlayingEvent>) {
        let client = try MPDClient(
            address: .tcp(host: "127.0.0.1", port: server.port),
            backoff: ReopenBackoff(initial: 0.02, maximum: 0.1), replyTimeout: .seconds(1)
        )
        client.start()
        return (client, StreamRecorder(client.events))
    }

    @Test func aMalformedReplyIsAProtocolErrorAndTheClientReconnects() async throws {
        let server = try ScriptedServer(greeting: "OK MPD 0.23.0\n") { _ in "this is not MPD\n" }
        let (client, events) = try events(from: server)
        defer { client.stop() }
        try await events.first("protocol error") {
            if case .lost(let why) = $0 { why.contains("protocol error") } else { false }
        }
        try await waitFor("a reconnect", timeout: 30) { server.connections >= 2 }
    }

    @Test func aWrongGreetingIsAProtocolError() async throws {
        let server = try ScriptedServer(greeting: "HTTP/1.1 400 Bad Request\n") { _ in "" }
        let (client, events) = try events(from: server)
        defer { client.stop() }
        try await events.first("greeting refused") {
            if case .lost(let why) = $0 { why.contains("greeting") } else { false }
        }
    }

    @Test func aServerThatNeverAnswersTimesOut() async throws {
        let server = try ScriptedServer(greeting: "OK MPD 0.23.0\n") { _ in "" }
        let (client, events) = try events(from: server)
        defer { client.stop() }
        try await events.first("time-out") {
            if case .lost(let why) = $0 { why.contains("did not answer") } else { false }
        }
    }

    @Test func anAckIsReported() async throws {
        let server = try ScriptedServer(greeting: "OK MPD 0.23.0\n") { _ in
            "ACK [4@0] {status} you don't have permission for \"status\"\n"
        }
        let (client, events) = try events(from: server)
        defer { client.stop() }
        try await events.first("ACK") {
            if case .lost(let why) = $0 { why.contains("permission") } else { false }
        }
    }
}

@Suite struct MPDParsingTests {
    @Test func addressesParse() throws {
        #expect(try MPDAddress(parsing: "localhost") == .tcp(host: "localhost", port: 6600))
        #expect(try MPDAddress(parsing: "10.0.0.2:6601") == .tcp(host: "10.0.0.2", port: 6601))
        #expect(try MPDAddress(parsing: "[::1]:7000") == .tcp(host: "::1", port: 7000))
        #expect(try MPDAddress(parsing: "::1") == .tcp(host: "::1", port: 6600))
        #expect(try MPDAddress(parsing: "/run/mpd/socket") == .unix(path: "/run/mpd/socket"))
        #expect(try MPDAddress(parsing: "@mpd") == .unix(path: "@mpd"))
        #expect(MPDAddress.tcp(host: "::1", port: 7000).description == "[::1]:7000")
        for bad in ["", "host:", "host:0", "host:70000", "host:port", ":6600", "[::1", "[::1]x", "a b", "/"] {
            #expect(throws: LightShowError.self, "\(bad)") { try MPDAddress(parsing: bad) }
        }
        do {
            _ = try MPDAddress(parsing: "host:x")
        } catch {
            #expect(error.description.contains("'host:x'"))
            #expect(error.exitStatus == .usage)
        }
    }

    @Test func replyLinesParse() throws {
        #expect(try MPDProtocol.parse("OK") == .ok)
        #expect(try MPDProtocol.parse("Title: A: B") == .field(MPDField(key: "Title", value: "A: B")))
        #expect(try MPDProtocol.parse("Title: ") == .field(MPDField(key: "Title", value: "")))
        #expect(try MPDProtocol.parse("ACK [50@0] {play} No such song") == .ack("ACK [50@0] {play} No such song"))
        #expect(throws: MPDError.self) { try MPDProtocol.parse("garbage") }
        #expect(throws: MPDError.self) { try MPDProtocol.parse(": value") }
        #expect(throws: MPDError.self) { try MPDProtocol.parse("key:value") }
        #expect(try MPDProtocol.version(fromGreeting: "OK MPD 0.23.5") == "0.23.5")
        #expect(throws: MPDError.self) { try MPDProtocol.version(fromGreeting: "SSH-2.0-OpenSSH") }
        #expect(MPDProtocol.quoted(#"a "b" \ c"#) == #""a \"b\" \\ c""#)
    }

    func fields(_ pairs: KeyValuePairs<String, String>) -> [MPDField] {
        pairs.map { MPDField(key: $0.key, value: $0.value) }
    }

    @Test func statusMapsStateTimesAndTitle() throws {
        let status = try NowPlayingStatus(mpdStatus: fields(["volume": "100", "state": "play", "elapsed": "12.5", "duration": "180.25"]),
            currentSong: fields(["file": "a/b/song.flac", "Artist": "Band", "Title": "Song"])
        )
        #expect(status == NowPlayingStatus(state: .playing, title: "Song", elapsed: 12.5, duration: 180.25))
        #expect(try NowPlayingStatus(mpdStatus: fields(["state": "pause"]), currentSong: []).state == .paused)
        let stopped = try NowPlayingStatus(mpdStatus: fields(["state": "stop"]), currentSong: [])
        #expect(stopped == NowPlayingStatus(state: .stopped))
        // Old servers: `time: elapsed:total`.
        let old = try NowPlayingStatus(mpdStatus: fields(["state": "play", "time": "7:200"]), currentSong: [])
        #expect(old.elapsed == 7 && old.duration == 200)
        #expect(throws: MPDError.self) { try NowPlayingStatus(mpdStatus: fields(["state": "dancing"]), currentSong: []) }
        #expect(throws: MPDError.self) { try NowPlayingStatus(mpdStatus: fields(["volume": "1"]), currentSong: []) }
    }

    @Test func titleFallsBackToArtistAndFileName() throws {
        func title(_ song: KeyValuePairs<String, String>) throws -> String? {
            try NowPlayingStatus(mpdStatus: fields(["state": "play"]), currentSong: fields(song)).title
        }
        #expect(try title(["file": "music/x/track 01.flac", "Artist": "Band"]) == "Band – track 01.flac")
        #expect(try title(["file": "track.wav"]) == "track.wav")
        #expect(try title(["file": "track.wav", "Title": ""]) == "track.wav")
        #expect(try title([:]) == nil)
    }
}
