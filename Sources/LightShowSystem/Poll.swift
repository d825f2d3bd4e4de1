#if canImport(Glibc)
public import Glibc
#endif
import LightShowCore

/// `poll(2)` with EINTR handled once: an interrupted wait resumes with what is left of its time.
public enum Poll {
    /// Waits on `count` descriptors at `fds`; `timeout` nil waits for ever. Returns poll's result (0 on time-out,
    /// -1 with errno on failure other than EINTR).
    public static func wait(_ fds: UnsafeMutablePointer<pollfd>, count: Int, timeout: Duration?) -> Int32 {
        let deadline = timeout.map { MonotonicClock.now() &+ $0.clampedNanoseconds }
        while true {
            let milliseconds = deadline.map { Self.milliseconds(until: $0) } ?? -1
            let ready = poll(fds, nfds_t(count), milliseconds)
            if ready < 0 && errno == EINTR { continue }
            return ready
        }
    }

    /// Waits on `count` descriptors until `deadline` (monotonic nanoseconds; nil = for ever), to the nanosecond
    /// rather than the millisecond `poll` rounds to, for pacing: poll sleeps the whole milliseconds, then an
    /// absolute sleep covers the rest (under a millisecond, the only time a wake-up can wait). Returns poll's
    /// result (0 once the deadline has passed with nothing ready).
    public static func wait(_ fds: UnsafeMutablePointer<pollfd>, count: Int, until deadline: UInt64?) -> Int32 {
        while true {
            var milliseconds: Int32 = -1
            if let deadline {
                let now = MonotonicClock.now()
                guard now < deadline else { return poll(fds, nfds_t(count), 0) }
                milliseconds = Int32(clamping: (deadline - now) / 1_000_000)
                if milliseconds == 0 {
                    MonotonicClock.sleep(until: deadline)
                    continue
                }
            }
            let ready = poll(fds, nfds_t(count), milliseconds)
            if ready < 0 && errno == EINTR { continue }
            // Woken by the rounded-down timeout: the loop sleeps out the rest.
            if ready == 0 && deadline != nil { continue }
            return ready
        }
    }

    /// Milliseconds left until `deadline` (monotonic nanoseconds), rounded up, clamped to poll's range.
    public static func milliseconds(until deadline: UInt64) -> Int32 {
        let now = MonotonicClock.now()
        guard deadline > now else { return 0 }
        return Int32(clamping: (deadline - now + 999_999) / 1_000_000)
    }
}

extension Duration {
    /// Nanoseconds, saturating at zero and at `UInt64.max` instead of trapping.
    public var clampedNanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        guard seconds >= 0 else { return 0 }
        guard seconds < 18_000_000_000 else { return .max }
        return UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
    }
}
