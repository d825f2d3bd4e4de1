import LightShowSystem
import Foundation
import Synchronization
import Testing
import TestSupport
@testable import LightShowControl

/// Every path of the control protocol, over a real Unix socket.
@Suite struct ControlServerTests {
    @Test func everyCommandIsAnswered() async throws {
        let fixture = try ServerFixture()
        let client = try await fixture.client()
        try await client.send(#"{"id":1,"cmd":"status"}"# + "\n")
        #expect(try await client.readText() == #"{"id":1,"ok":true,"result":{"state":"playing"}}"#)
        // The client numbers its own requests from 1.
        #expect(try await client.request("pause") == ["id": 1, "ok": true, "result": ["state": "paused"]])
        #expect(try await client.request("status")["result"] == ["state": "paused"])
        #expect(try await client.request("toggle")["result"] == ["state": "playing"])
        #expect(try await client.request("stop")["result"] == ["state": "stopped"])
        #expect(try await client.request("play")["result"] == ["state": "playing"])
        #expect(try await client.request("reload") == [
            "id": 6, "ok": false, "error": "f.toml:2: error: bands.bass.upper: 30000 is above the axis maximum 20000",
        ])
        #expect(try await client.request("subscribe", arguments: ["fps": 25]) == ["id": 7, "ok": true, "result": ["fps": 25, "protocol": 1]])
        #expect(await fixture.handler.received == [.status, .pause, .status, .toggle, .stop, .play, .reload])
    }

    @Test func idsAreEchoedAsGivenAndPipelinedRepliesKeepTheirOrder() async throws {
        let fixture = try ServerFixture()
        let client = try await fixture.client()
        try await client.send(#"{"id":"a","cmd":"pause"}"# + "\n" + #"{"id":[2],"cmd":"status"}"# + "\r\n" + #"{"cmd":"play"}"# + "\n")
        #expect(try await client.readText() == #"{"id":"a","ok":true,"result":{"state":"paused"}}"#)
        #expect(try await client.readText() == #"{"id":[2],"ok":true,"result":{"state":"paused"}}"#)
        #expect(try await client.readText() == #"{"id":null,"ok":true,"result":{"state":"playing"}}"#)
    }

    @Test func halfClosedClientGetsItsRepliesThenEndOfStream() async throws {
        let fixture = try ServerFixture()
        let client = try await fixture.client()
        // The last line has no newline: end of input ends it.
        try await client.send(#"{"id":1,"cmd":"pause"}"# + "\n" + #"{"id":2,"cmd":"status"}"#)
        try await client.finishSending()
        #expect(try await client.readText() == #"{"id":1,"ok":true,"result":{"state":"paused"}}"#)
        #expect(try await client.readText() == #"{"id":2,"ok":true,"result":{"state":"paused"}}"#)
        #expect(try await client.readLine() == nil)
        #expect(await Wait.until(within: 10) { fixture.server.connectionCounts.clients == 0 })
    }

    /// Connection counts are announced when they change (for STATUS=), not on every request.
    @Test func countChangesAreAnnounced() async throws {
        let fixture = try ServerFixture()
        let heard = Mutex<[(clients: Int, subscribers: Int)]>([])
        fixture.server.countChanges.listen { [server = fixture.server] in
            let counts = server.connectionCounts
            heard.withLock { $0.append(counts) }
        }
        let client = try await fixture.client()
        #expect(await Wait.until(within: 10) { heard.withLock { $0.last.map { $0 == (1, 0) } ?? false } })
        #expect(try await client.request("subscribe")["ok"] == true)
        #expect(await Wait.until(within: 10) { heard.withLock { $0.last.map { $0 == (1, 1) } ?? false } })
        let before = heard.withLock { $0.count }
        #expect(try await client.request("status")["ok"] == true)
        #expect(heard.withLock { $0.count } == before)
        await client.close()
        #expect(await Wait.until(within: 10) { heard.withLock { $0.last.map { $0 == (0, 0) } ?? false } })
    }

    static let malformed: [(String, String)] = [
        ("hello", #"{"id":null,"ok":false,"error":"invalid JSON at byte 1: expected a value"}"#),
        ("[1,2]", #"{"id":null,"ok":false,"error":"expected a JSON object like {\"id\":1,\"cmd\":\"status\"}"}"#),
        (#"{"id":7}"#, #"{"id":7,"ok":false,"error":"missing \"cmd\""}"#),
        (#"{"id":8,"cmd":"dance"}"#,
         #"{"id":8,"ok":false,"error":"unknown command \"dance\"; expected one of status, play, pause, toggle, stop, reload, subscribe, set-band, set-color, set-brightness, set-input, metrics"}"#),
        (#"{"id":9,"cmd":5}"#,
         #"{"id":9,"ok":false,"error":"unknown command 5; expected one of status, play, pause, toggle, stop, reload, subscribe, set-band, set-color, set-brightness, set-input, metrics"}"#),
        (#"{"id":10,"cmd":"status""#, #"{"id":null,"ok":false,"error":"invalid JSON: line ends where ',' or '}' was expected"}"#),
        (#"{"id":11,"cmd":"subscribe","fps":0}"#, #"{"id":11,"ok":false,"error":"fps must be a number from 1 to 240, found 0"}"#),
        (#"{"id":12,"cmd":"subscribe","fps":"fast"}"#,
         #"{"id":12,"ok":false,"error":"fps must be a number from 1 to 240, found \"fast\""}"#),
    ]

    @Test func malformedLinesGetAnErrorAndTheConnectionStaysUsable() async throws {
        let fixture = try ServerFixture()
        let client = try await fixture.client()
        for (line, reply) in Self.malformed {
            try await client.send(line + "\n")
            #expect(try await client.readText() == reply, "reply to \(line)")
            #expect(try await client.request("status")["ok"] == true)
        }
    }

    @Test func oversizedLineGetsOneErrorAndIsSkipped() async throws {
        let fixture = try ServerFixture()
        let client = try await fixture.client()
        // The line ends with a valid request: it must not run, since it belongs to the rejected line.
        try await client.send(String(repeating: "x", count: 70_000) + #"{"id":99,"cmd":"pause"}"# + "\n")
        #expect(try await client.readText() == #"{"id":null,"ok":false,"error":"request line longer than 65536 bytes"}"#)
        #expect(try await client.request("status")["result"] == ["state": "playing"])
    }

    @Test func thousandBadLinesLeaveItServing() async throws {
        let fixture = try ServerFixture()
        let client = try await fixture.client()
        let oversized = String(repeating: "y", count: 66_000) + "\n"
        var batch = ""
        for index in 0..<1000 {
            batch += index % 10 == 0 ? oversized : Self.malformed[index % Self.malformed.count].0 + "\n"
        }
        let bytes = Array(batch.utf8)
        client.sendInBackground(bytes)
        var errors = 0
        while errors < 1000, let reply = try await client.readJSON() {
            #expect(reply["ok"] == false)
            errors += 1
        }
        #expect(errors == 1000)
        #expect(try await client.request("status")["ok"] == true)
        #expect(try await fixture.client().request("status")["ok"] == true)
    }

    @Test func aFloodingClientThatDoesNotReadStallsNoOneAndLosesNoReply() async throws {
        let fixture = try ServerFixture()
        let flooder = try await fixture.client()
        // 4 MB of two-byte bad lines: two million error replies if nothing held them back.
        flooder.sendInBackground(Array(repeating: Array("x\n".utf8), count: 2_000_000).flatMap { $0 })
        // Meanwhile others are served promptly.
        let other = try await fixture.client()
        for _ in 0..<20 { #expect(try await other.request("status")["ok"] == true) }
        // The flooder gets every reply in order once it reads: the server held its lines, it dropped none.
        var replies = 0
        while replies < 2_000_000, let line = try await flooder.readText() {
            if replies == 0 { #expect(line == #"{"id":null,"ok":false,"error":"invalid JSON at byte 1: expected a value"}"#) }
            replies += 1
            if replies >= 20_000 { break }
        }
        #expect(replies == 20_000)
    }

    @Test func clientsAreCapped() async throws {
        let fixture = try ServerFixture(maxClients: 2)
        let first = try await fixture.client()
        let second = try await fixture.client()
        #expect(try await first.request("status")["ok"] == true)
        #expect(try await second.request("status")["ok"] == true)
        let third = try await fixture.client()
        #expect(try await third.readText() == #"{"id":null,"ok":false,"error":"too many clients (limit 2)"}"#)
        #expect(try await third.readLine() == nil)
        await first.close()
        #expect(await Wait.until(within: 10) { fixture.server.connectionCounts.clients == 1 })
        #expect(try await fixture.client().request("status")["ok"] == true)
    }

    @Test func socketHasMode0660AndGoesAwayOnShutdown() async throws {
        let fixture = try ServerFixture()
        var info = stat()
        #expect(stat(fixture.path, &info) == 0)
        #expect(info.st_mode & S_IFMT == S_IFSOCK)
        #expect(info.st_mode & 0o777 == 0o660)
        fixture.server.shutdown()
        #expect(access(fixture.path, F_OK) != 0)
        await #expect(throws: SystemCallError.self) { try await fixture.client() }
    }

    @Test func runServesUntilCancelled() async throws {
        let dir = try TemporaryDirectory("ls-ctl")
        let path = dir.file("control.sock")
        let server = try ControlServer(path: path, handler: RecordingHandler())
        let service = Task { try await server.run() }
        let client = try await AsyncClient(path: path)
        #expect(try await client.request("status")["ok"] == true)
        service.cancel()
        try await service.value
        #expect(access(path, F_OK) != 0)
        #expect(try await client.readLine() == nil)
    }

    @Test func shutdownTwiceAndPublishingAfterwardsAreHarmless() async throws {
        let fixture = try ServerFixture()
        let client = try await fixture.client()
        #expect(try await client.request("subscribe")["ok"] == true)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 { group.addTask { fixture.server.shutdown() } }
        }
        fixture.server.publishFrame(["event": "frame"])
        fixture.server.publishScene(["event": "scene"])
        fixture.server.shutdown()
        #expect(try await client.readLine() == nil)
        #expect(access(fixture.path, F_OK) != 0)
    }

    @Test func theSceneReachesEachSubscriberFirstAndAgainWhenItChanges() async throws {
        let fixture = try ServerFixture()
        fixture.server.publishScene(["event": "scene", "n": 1])
        let subscriber = try await fixture.client()
        let other = try await fixture.client()
        #expect(try await subscriber.request("subscribe")["result"] == ["fps": 30, "protocol": 1])
        #expect(await Wait.until(within: 10) { fixture.server.connectionCounts == (2, 1) })
        #expect(try await subscriber.readText() == #"{"event":"scene","n":1}"#)
        fixture.server.publishScene(["event": "scene", "n": 2])
        #expect(try await subscriber.readText() == #"{"event":"scene","n":2}"#)
        #expect(try await other.request("status")["id"] == 1)
    }
}
