#if canImport(Glibc)
import Glibc
#endif

/// `CLOCK_MONOTONIC` readings and absolute sleeps, the time base for capture stamps and real-time pacing.
public enum MonotonicClock {
    /// Nanoseconds on `CLOCK_MONOTONIC`.
    public static func now() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }

    /// Seconds on `CLOCK_MONOTONIC`.
    public static func seconds() -> Double {
        Double(now()) / 1e9
    }

    /// Sleeps until the monotonic clock reaches `deadline`; absolute, so pacing never drifts.
    public static func sleep(until deadline: UInt64) {
        var spec = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &spec, nil) == EINTR {}
    }

    /// Sleeps for `seconds`.
    public static func sleep(seconds: Double) {
        sleep(until: now() + UInt64(max(0, seconds) * 1e9))
    }
}
