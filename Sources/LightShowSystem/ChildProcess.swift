#if canImport(Glibc)
public import Glibc
#endif
import LightShowCore

/// Waiting for a child process with a time limit, EINTR handled here.
public enum ChildProcess {
    /// How a wait ended.
    public enum Ending: Equatable, Sendable {
        /// Exited with this status.
        case exited(Int32)
        /// Killed by this signal.
        case signalled(Int32)
        /// Still running at the limit: killed (SIGKILL) and reaped.
        case timedOut
        /// Not ours to wait for (reaped elsewhere): nothing to judge by.
        case unknown
    }

    /// Waits up to `limit` nanoseconds (`.max`: for ever) for `pid` to end, checking every 2 ms.
    public static func wait(_ pid: pid_t, limit: UInt64) -> Ending {
        var status: Int32 = 0
        let (sum, overflow) = MonotonicClock.now().addingReportingOverflow(limit)
        let deadline = overflow ? UInt64.max : sum
        while true {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid { break }
            if result < 0 && errno != EINTR { return .unknown }
            if MonotonicClock.now() >= deadline {
                // Failing means it has just ended by itself: the wait below reaps it either way.
                _ = kill(pid, SIGKILL)
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                return .timedOut
            }
            MonotonicClock.sleep(until: MonotonicClock.now() &+ 2_000_000)
        }
        // WIFSIGNALED / WTERMSIG / WEXITSTATUS, which Swift can't import as macros.
        let signal = status & 0x7F
        if signal != 0 && signal != 0x7F { return .signalled(signal) }
        return .exited((status >> 8) & 0xFF)
    }
}
