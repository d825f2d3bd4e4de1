import LightShowCore
@testable import LightShowNowPlaying
import LightShowSystem
import Logging
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// What the MPD and MPRIS clients share, without either: the queue, the signals, the pause between sessions.
@Suite struct PlayerThreadTests {
    private func isReadable(_ signal: WakeSignal) -> Bool {
        var poller = pollfd(fd: signal.readFD, events: Int16(POLLIN), revents: 0)
        return Poll.wait(&poller, count: 1, timeout: .zero) == 1
    }

    @Test func aBurstKeepsTheNewestFourInOrder() throws {
        let thread = try PlayerThread(threadName: "test-player", client: "test client", logger: Logger(label: "test"))
        #expect(!isReadable(thread.commandSignal))
        for command in [UserCommand.play, .pause, .toggle, .stop, .play, .pause] { thread.forward(command) }
        #expect(isReadable(thread.commandSignal))
        #expect(thread.takeCommands() == [.toggle, .stop, .play, .pause])
        #expect(!isReadable(thread.commandSignal))
        #expect(thread.takeCommands().isEmpty)
    }

    /// Commands that come between sessions are dropped and don't end the pause; a stop ends it at once.
    @Test func aPauseDropsCommandsAndEndsOnStop() throws {
        let thread = try PlayerThread(threadName: "test-player", client: "test client", logger: Logger(label: "test"))
        thread.forward(.play)
        let started = MonotonicClock.now()
        #expect(!thread.pause(for: .milliseconds(40)))
        #expect(MonotonicClock.now() - started >= 40_000_000)
        #expect(thread.takeCommands().isEmpty)
        thread.stop()
        #expect(thread.isStopped)
        #expect(isReadable(thread.stopSignal))
        let stopped = MonotonicClock.now()
        #expect(thread.pause(for: .seconds(30)))
        #expect(MonotonicClock.now() - stopped < 5_000_000_000)
        // The stop signal stays readable for every later wait.
        #expect(isReadable(thread.stopSignal))
    }

    /// A reader that drops the client's news stops the thread, as `stop()` would.
    @Test func theEndOfTheEventStreamStopsTheThread() throws {
        let thread = try PlayerThread(threadName: "test-player", client: "test client", logger: Logger(label: "test"))
        #expect(!thread.isStopped)
        thread.continuation.finish()
        #expect(thread.isStopped)
        #expect(isReadable(thread.stopSignal))
    }
}
