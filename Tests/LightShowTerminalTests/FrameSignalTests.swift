import Glibc
import LightShowTerminal
import Testing

@Suite struct FrameSignalTests {
    private func isReadable(_ signal: FrameSignal) -> Bool {
        var poller = pollfd(fd: signal.descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&poller, 1, 0) == 1
    }

    /// The viewer sleeps on the descriptor: readable from a notify until it consumes, however many notifies came.
    @Test func readableFromNotifyUntilConsumed() throws {
        let signal = try FrameSignal()
        #expect(!isReadable(signal))
        signal.notify()
        signal.notify()
        #expect(isReadable(signal))
        signal.consume()
        #expect(!isReadable(signal))
        signal.notify()
        #expect(isReadable(signal))
    }

    /// Many notifies with nobody consuming never block the notifying thread (the audio reader's).
    @Test func notifyNeverBlocks() throws {
        let signal = try FrameSignal()
        for _ in 0..<100_000 { signal.notify() }
        #expect(isReadable(signal))
        signal.consume()
        #expect(!isReadable(signal))
    }
}
