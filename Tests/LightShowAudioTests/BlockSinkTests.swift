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
        let starts = Locked<[Int64]>([])
        do {
            try await BlockSink.run({ block in starts.value.append(block.startFrame); return true }) { sink in
                try DedicatedThread.start(name: "ls-test-reader") {
                    for index in 0..<3 { #expect(sink.deliver(block(Int64(index)))) }
                    sink.finish(LightShowError("gone", exitStatus: .ioError))
                }
            }
            Issue.record("the error was not thrown")
        } catch let error as LightShowError {
            #expect(error.message == "gone")
        }
        #expect(starts.value == [0, 1, 2], "blocks handed over before the error still arrive, in order")
    }

    @Test func cancellingTheConsumerStopsTheReader() async throws {
        let reader = Locked<BlockSink?>(nil)
        let running = Task {
            try await BlockSink.run({ _ in true }) { sink in reader.value = sink }
        }
        #expect(await Wait.until(within: 5) { reader.value != nil })
        let sink = try #require(reader.value)
        #expect(!sink.isCancelled())
        running.cancel()
        #expect(await Wait.until(within: 5) { sink.isCancelled() })
        #expect(!sink.deliver(block(0)), "a reader learns that nobody listens")
        #expect(sink.stopped?.wait(for: Duration.zero) == true, "a reader asleep in poll is woken")
        sink.finish(nil)
        try await running.value
    }
}
