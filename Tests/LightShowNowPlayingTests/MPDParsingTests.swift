import Foundation
import LightShowCore
@testable import LightShowNowPlaying
import Logging
import Testing
import TestSupport

/// MPD addresses and replies parsed without a server.
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
