import Foundation
import LightShowCore
import LightShowMQTT
import LightShowSystem
import Logging
import Synchronization
import Testing
import TestSupport

/// The connection against a real mosquitto on a loopback port: it publishes what the store holds, hands over what
/// it receives (dropping oversized payloads), re-announces after the broker restarts, and says goodbye at a stop.
@Suite(.serialized) struct MQTTConnectionTests {
    final class Inbox: Sendable {
        let messages = Mutex<[MQTTMessage]>([])
        func add(_ message: MQTTMessage) { messages.withLock { $0.append(message) } }
        var all: [MQTTMessage] { messages.withLock { $0 } }
    }

    static func connection(_ broker: MosquittoBroker, inbox: Inbox, will: MQTTMessage? = nil) throws -> MQTTConnection {
        var options = MQTTConnection.Options(host: "127.0.0.1", port: Int(broker.port), clientID: "ls-test-\(broker.port)")
        options.subscriptions = ["test/in/#"]
        options.will = will
        options.maximumPayloadBytes = 1024
        return try MQTTConnection(options: options, logger: Logger(label: "test.mqtt"), received: { inbox.add($0) })
    }

    @Test func publishesRetainedMessagesAndReceivesSubscribedOnes() async throws {
        let broker = try MosquittoBroker()
        let inbox = Inbox()
        let connection = try Self.connection(broker, inbox: inbox)
        connection.publish(MQTTMessage(topic: "test/out/a", text: "first", retain: true))
        connection.publish(MQTTMessage(topic: "test/out/a", text: "second", retain: true))
        try connection.start()
        #expect(await OffPool.until(timeout: 10) { connection.state == .connected }, "\(connection.state)")
        #expect(try await broker.message("test/out/a") == "second", "only the newest payload of a topic is kept")

        // An oversized payload is dropped; the next good one still arrives.
        let big = try broker.directory.write("big", Data(repeating: 0x41, count: 4096))
        try await broker.publishFile("test/in/x", big)
        try await broker.publish("test/in/x", "small")
        #expect(await OffPool.until(timeout: 10) { inbox.all.contains { $0.payload == Array("small".utf8) } })
        #expect(!inbox.all.contains { $0.payload.count > 1024 }, "oversized payloads never reach the receiver")

        await connection.stop(finalMessages: [MQTTMessage(topic: "test/out/status", text: "bye", retain: true)])
        #expect(try await broker.message("test/out/status") == "bye", "the final message went out before the disconnect")
    }

    @Test func reconnectsAfterTheBrokerRestartsAndAnnouncesAgain() async throws {
        let broker = try MosquittoBroker()
        let connection = try Self.connection(broker, inbox: Inbox())
        try connection.start()
        connection.publish(MQTTMessage(topic: "test/out/config", text: "config", retain: true))
        #expect(try await broker.message("test/out/config") == "config")

        broker.stop()
        #expect(await OffPool.until(timeout: 10) { connection.state.name == "disconnected" }, "\(connection.state)")
        try broker.start()
        // No persistence: the retained config is back only because the client published it again.
        #expect(await OffPool.until(timeout: 30) { connection.state == .connected }, "\(connection.state)")
        #expect(try await broker.message("test/out/config", seconds: 10) == "config")
        await connection.stop()
    }

    @Test func anUnreachableBrokerIsRetriedWithoutBlockingPublishers() async throws {
        let port = try MPDServer.freePort()
        var options = MQTTConnection.Options(host: "127.0.0.1", port: Int(port), clientID: "ls-test-away")
        options.keepAliveSeconds = 5
        let connection = try MQTTConnection(options: options, logger: Logger(label: "test.mqtt"), received: { _ in })
        try connection.start()
        #expect(await OffPool.until(timeout: 10) { connection.state.name == "disconnected" })
        let start = MonotonicClock.now()
        for index in 0..<10_000 { connection.publish(MQTTMessage(topic: "test/out/\(index % 8)", text: "\(index)")) }
        #expect(MonotonicClock.now() - start < 2_000_000_000, "publishing never waits for the broker")
        await connection.stop()
    }
}
