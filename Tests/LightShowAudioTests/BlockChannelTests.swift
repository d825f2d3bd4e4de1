import LightShowSystem
import Foundation
@testable import LightShowAudio
import LightShowCore
import Testing
import TestSupport

@Suite struct BlockChannelTests {
    private func block(_ start: Int64) -> SampleBlock {
        SampleBlock(samples: [0, 0], channels: 2, sampleRate: 48_000, startFrame: start)
    }

    @Test func queuedBlocksArriveInOrderThenTheError() async throws {
        let channel = BlockChannel(capacity: 4)
        for index in 0..<3 { #expect(channel.send(block(Int64(index)))) }
        channel.finish(throwing: LightShowError("gone", exitStatus: .ioError))
        var starts: [Int64] = []
        do {
            for try await item in channel.makeStream() { starts.append(item.startFrame) }
            Issue.record("the error was not thrown")
        } catch let error as LightShowError {
            #expect(error.message == "gone")
        }
        #expect(starts == [0, 1, 2], "blocks queued before the error still arrive")
    }

    @Test func aFullChannelHoldsTheReaderUntilTheConsumerTakes() async throws {
        let channel = BlockChannel(capacity: 2)
        let sent = Locked(0)
        Thread.detachNewThread {
            for index in 0..<5 where channel.send(SampleBlock(samples: [0], channels: 1, sampleRate: 8_000, startFrame: Int64(index))) {
                sent.value += 1
            }
            channel.finish()
        }
        #expect(await Wait.until(within: 10) { sent.value == 2 })
        #expect(sent.value == 2, "the third send waits for room")
        var received = 0
        for try await _ in channel.makeStream() { received += 1 }
        #expect(received == 5)
    }

    @Test func releasingTheStreamClosesTheChannel() async throws {
        let channel = BlockChannel(capacity: 2)
        do {
            let stream = channel.makeStream()
            _ = stream
        }
        #expect(await Wait.until(within: 5) { channel.isClosed })
        #expect(!channel.send(block(0)), "a reader learns that nobody listens")
    }
}
