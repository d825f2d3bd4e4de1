import LightShowCore
import LightShowSystem
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite struct PollTests {
    @Test func aReadyDescriptorIsReportedAtOnce() throws {
        let wake = try WakeSignal()
        wake.signal()
        var fds = [pollfd(fd: wake.readFD, events: Int16(POLLIN), revents: 0)]
        #expect(Poll.wait(&fds, count: 1, timeout: .seconds(10)) == 1)
        #expect(fds[0].revents & Int16(POLLIN) != 0)
    }

    @Test func nothingReadyTimesOutNoSooner() throws {
        let wake = try WakeSignal()
        var fds = [pollfd(fd: wake.readFD, events: Int16(POLLIN), revents: 0)]
        let started = MonotonicClock.now()
        #expect(Poll.wait(&fds, count: 1, timeout: .milliseconds(30)) == 0)
        #expect(MonotonicClock.now() - started >= 30_000_000)
    }

    /// To the nanosecond: the deadline has passed when it returns, though poll itself counts milliseconds.
    @Test func aDeadlineIsKeptToTheNanosecond() throws {
        let wake = try WakeSignal()
        var fds = [pollfd(fd: wake.readFD, events: Int16(POLLIN), revents: 0)]
        for offset: UInt64 in [0, 300_000, 2_500_000] {
            let deadline = MonotonicClock.now() + offset
            #expect(Poll.wait(&fds, count: 1, until: deadline) == 0)
            #expect(MonotonicClock.now() >= deadline)
        }
    }

    @Test func aFailureIsMinusOneWithErrno() {
        var fds = [pollfd(fd: 0, events: Int16(POLLIN), revents: 0)]
        // More descriptors than the process may have open: EINVAL.
        #expect(Poll.wait(&fds, count: Int(Int32.max), timeout: .zero) == -1)
        #expect(errno == EINVAL)
    }

    @Test func millisecondsRoundUpAndClamp() {
        let now = MonotonicClock.now()
        #expect(Poll.milliseconds(until: now - 1) == 0)
        #expect((1...2).contains(Poll.milliseconds(until: now + 1_000_001)))
        #expect(Poll.milliseconds(until: .max) == Int32.max)
    }

    @Test func durationsSaturateToNanoseconds() {
        #expect(Duration.milliseconds(1_500).clampedNanoseconds == 1_500_000_000)
        #expect(Duration.seconds(-3).clampedNanoseconds == 0)
        #expect(Duration.seconds(Int64.max).clampedNanoseconds == .max)
    }

    /// A signal (EINTR) during a wait with no time limit doesn't end it: it goes on until the descriptor is ready.
    @Test func aSignalDoesNotEndTheWait() throws {
        let wake = try WakeSignal()
        let readFD = wake.readFD
        let call = try InterruptibleCall {
            var fds = [pollfd(fd: readFD, events: Int16(POLLIN), revents: 0)]
            return Poll.wait(&fds, count: 1, timeout: nil)
        }
        #expect(call.interrupt(times: 5) >= 5)
        #expect(call.result == nil)
        wake.signal()
        #expect(call.waitForResult() == 1)
    }

    /// The same with a time limit: the wait resumes with what is left of it, not the whole again.
    @Test func aSignalDoesNotRestartTheTimeout() throws {
        let wake = try WakeSignal()
        let readFD = wake.readFD
        let begin = MonotonicClock.now()
        let call = try InterruptibleCall { () -> (ready: Int32, at: UInt64) in
            var fds = [pollfd(fd: readFD, events: Int16(POLLIN), revents: 0)]
            return (Poll.wait(&fds, count: 1, timeout: .milliseconds(200)), MonotonicClock.now())
        }
        #expect(call.interrupt(times: 1_000) > 0)
        let outcome = try #require(call.waitForResult())
        #expect(outcome.ready == 0)
        // Restarted in full on each of the many signals, it would have lasted far longer than 200 ms.
        #expect(outcome.at - begin >= 200_000_000 && outcome.at - begin < 2_000_000_000)
    }
}
