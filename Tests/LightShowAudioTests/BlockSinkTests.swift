@testable import LightShowAudio
import LightShowCore
import LightShowSystem
import Testing
import TestSupport

@Suite struct BlockSinkTests {
    private func block(_ start: Int64) -> SampleBlock {
        SampleBlock(samples: [0, 0], channels: 2, sampleRate: 48_000, startFrame: start)
    }

    @Test func blocksArriveInOrderThenTheReadersError() async throws {
        let stream = BlockSink.stream(capacity: 4) { sink in
            for index in 0..<3 { #expect(sink.deliver(block(Int64(index)))) }
            sink.finish(LightShowError("gone", exitStatus: .ioError))
        }
        var starts: [Int64] = []
        do {
            for try await item in stream { starts.append(item.startFrame) }
            Issue.record("the error was not thrown")
        } catch let error as LightShowError {
            #expect(error.message == "gone")
        }
        #expect(starts == [0, 1, 2], "blocks queued before the error still arrive")
    }

    @Test func releasingTheStreamStopsTheReader() async throws {
        let reader = Locked<BlockSink?>(nil)
        do {
            let stream = BlockSink.stream(capacity: 2) { sink in reader.value = sink }
            _ = stream
        }
        let sink = try #require(reader.value)
        #expect(await Wait.until(within: 5) { sink.isCancelled() })
        #expect(!sink.deliver(block(0)), "a reader learns that nobody listens")
        #expect(sink.stopped?.wait(for: Duration.zero) == true, "a reader asleep in poll is woken")
    }
}
