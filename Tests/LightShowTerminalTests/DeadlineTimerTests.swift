import LightShowSystem
import Glibc
import LightShowCore
@testable import LightShowTerminal
import Testing

@Suite struct DeadlineTimerTests {
    /// Readable within `milliseconds`.
    private func fires(_ timer: DeadlineTimer, within milliseconds: Int32) -> Bool {
        var poller = pollfd(fd: timer.descriptor, events: Int16(POLLIN), revents: 0)
        return Poll.wait(&poller, count: 1, timeout: .milliseconds(Int64(milliseconds))) == 1
    }

    @Test func firesAtItsDeadlineUntilConsumed() throws {
        let timer = try DeadlineTimer()
        #expect(!fires(timer, within: 0))
        timer.arm(at: MonotonicClock.now() + 20_000_000)
        #expect(!fires(timer, within: 0))
        #expect(fires(timer, within: 2_000))
        timer.consume()
        #expect(!fires(timer, within: 0))
    }

    /// A deadline already past fires at once; a disarmed timer never fires.
    @Test func aPastDeadlineFiresAtOnceAndDisarmingCancels() throws {
        let timer = try DeadlineTimer()
        timer.arm(at: MonotonicClock.now() - 1_000_000)
        #expect(fires(timer, within: 1_000))
        timer.consume()
        timer.arm(at: MonotonicClock.now() + 30_000_000)
        timer.disarm()
        #expect(!fires(timer, within: 100))
    }
}
