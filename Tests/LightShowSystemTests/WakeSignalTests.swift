import Glibc
import LightShowSystem
import Testing

@Suite struct WakeSignalTests {
    private func isReadable(_ signal: WakeSignal) -> Bool {
        var poller = pollfd(fd: signal.readFD, events: Int16(POLLIN), revents: 0)
        return poll(&poller, 1, 0) == 1  // os-idiom: the raw call, independent of the code tested
    }

    /// A thread sleeps on the descriptor: readable from a signal until it consumes, however many signals came.
    @Test func readableFromASignalUntilConsumed() throws {
        let signal = try WakeSignal()
        #expect(!isReadable(signal))
        signal.signal()
        signal.signal()
        #expect(isReadable(signal))
        signal.consume()
        #expect(!isReadable(signal))
        signal.signal()
        #expect(isReadable(signal))
    }

    /// Many signals with nobody consuming never block the signalling thread (an audio reader's).
    @Test func signallingNeverBlocks() throws {
        let signal = try WakeSignal()
        for _ in 0..<100_000 { signal.signal() }
        #expect(isReadable(signal))
        signal.consume()
        #expect(!isReadable(signal))
    }
}
