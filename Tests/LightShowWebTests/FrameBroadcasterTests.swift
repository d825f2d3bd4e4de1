import LightShowControl
import NIOCore
import NIOEmbedded
import NIOWebSocket
import Testing
@testable import LightShowWeb

/// The one sender of every `/api/frames` viewer, against viewer connections on a test event loop whose time the
/// test moves, each message read back by NIOWebSocket's own frame decoder.
@Suite struct FrameBroadcasterTests {
    let loop = NIOAsyncTestingEventLoop()
    let board = ShowEventBoard()
    let tally = ViewerTally()
    let broadcaster: FrameBroadcaster
    /// Every turn is due at once: pacing is `ShowEventPacer`'s, tested on its own.
    static let unpaced = 1e9

    init() {
        broadcaster = FrameBroadcaster(events: board, loop: loop, tally: tally, stallSeconds: 5)
        broadcaster.start()
    }

    /// An upgraded viewer's connection: the frame encoder the upgrade leaves in its pipeline, connected.
    func viewer() async throws -> NIOAsyncTestingChannel {
        let channel = try await NIOAsyncTestingChannel(loop: loop) { channel in
            try channel.pipeline.syncOperations.addHandler(WebSocketFrameEncoder())
        }
        try await channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 8490)).get()
        return channel
    }

    /// Publishes on the test's thread, as the show does on its own, and lets the loop run what that sent it.
    func publish(frame index: Int) async {
        board.publishFrame(["event": "frame", "index": .number(Double(index))])
        await loop.run()
    }

    /// The text messages written to `channel` since the last call, and the buffers they went out in.
    func sent(to channel: NIOAsyncTestingChannel) async throws -> (texts: [String], buffers: [ByteBuffer]) {
        let decoder = try await NIOAsyncTestingChannel(loop: loop) { channel in
            try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(WebSocketFrameDecoder()))
        }
        var buffers: [ByteBuffer] = []
        while let buffer = try await channel.readOutbound(as: ByteBuffer.self) {
            buffers.append(buffer)
            try await decoder.writeInbound(buffer)
        }
        var texts: [String] = []
        while let frame = try await decoder.readInbound(as: WebSocketFrame.self) {
            #expect(frame.opcode == .text && frame.fin)
            texts.append(String(buffer: frame.unmaskedData))
        }
        return (texts, buffers)
    }

    @Test func aViewerGetsTheSceneAndTheNewestFrameOnJoiningThenEachNewEvent() async throws {
        board.publishScene(["event": "scene", "n": 1])
        await publish(frame: 1)
        await publish(frame: 2)
        let channel = try await viewer()
        _ = try await broadcaster.join(channel, framesPerSecond: Self.unpaced)
        #expect(try await sent(to: channel).texts == [#"{"event":"scene","n":1}"#, #"{"event":"frame","index":2}"#])

        await publish(frame: 3)
        #expect(try await sent(to: channel).texts == [#"{"event":"frame","index":3}"#])
        board.publishScene(["event": "scene", "n": 2])
        await loop.run()
        #expect(try await sent(to: channel).texts == [#"{"event":"scene","n":2}"#])
    }

    @Test func everyViewerIsWrittenTheSameBufferNotACopy() async throws {
        await publish(frame: 1)
        let (first, second) = (try await viewer(), try await viewer())
        _ = try await broadcaster.join(first, framesPerSecond: Self.unpaced)
        _ = try await broadcaster.join(second, framesPerSecond: Self.unpaced)
        _ = try await (sent(to: first), sent(to: second))

        await publish(frame: 2)
        let (one, other) = (try await sent(to: first), try await sent(to: second))
        #expect(one.texts == [#"{"event":"frame","index":2}"#] && other.texts == one.texts)
        let addresses = [one, other].map { $0.buffers.first?.withUnsafeReadableBytes { $0.baseAddress } }
        #expect(addresses[0] != nil && addresses[0] == addresses[1])
    }

    @Test func aFullSocketSkipsFramesAsDroppedAndGetsTheNewestWhenItDrains() async throws {
        await publish(frame: 1)
        let channel = try await viewer()
        _ = try await broadcaster.join(channel, framesPerSecond: Self.unpaced)
        _ = try await sent(to: channel)

        try await setWritable(channel, false)
        for index in 2...5 { await publish(frame: index) }
        #expect(try await sent(to: channel).texts.isEmpty)
        try await setWritable(channel, true)
        #expect(try await sent(to: channel).texts == [#"{"event":"frame","index":5}"#])
        #expect(tally.droppedFrames == 3)
    }

    @Test func aSocketFullForTheStallTimeIsClosedAndOneThatDrainsIsNot() async throws {
        let (stalled, slow) = (try await viewer(), try await viewer())
        _ = try await broadcaster.join(stalled, framesPerSecond: Self.unpaced)
        _ = try await broadcaster.join(slow, framesPerSecond: Self.unpaced)
        try await setWritable(stalled, false)
        try await setWritable(slow, false)
        await loop.advanceTime(by: .seconds(4))
        try await setWritable(slow, true)
        #expect(stalled.isActive && slow.isActive)
        await loop.advanceTime(by: .milliseconds(1100))
        #expect(!stalled.isActive)
        await loop.advanceTime(by: .seconds(10))
        #expect(slow.isActive)
    }

    @Test func aViewerThatLeftIsSentNothingMore() async throws {
        await publish(frame: 1)
        let channel = try await viewer()
        let id = try await broadcaster.join(channel, framesPerSecond: Self.unpaced)
        _ = try await sent(to: channel)
        broadcaster.leave(id)
        await publish(frame: 2)
        #expect(try await sent(to: channel).texts.isEmpty)
    }

    /// What the socket does when its send buffer fills or drains.
    func setWritable(_ channel: NIOAsyncTestingChannel, _ writable: Bool) async throws {
        channel.isWritable = writable
        try await loop.submit { channel.pipeline.fireChannelWritabilityChanged() }.get()
    }
}
