import Foundation
import LightShowCore
@testable import LightShowNowPlaying
import Logging
import Testing
import TestSupport

/// The MPD client against a scripted server on loopback that breaks the protocol: no MPD is started.
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
