#if canImport(Glibc)
import Glibc
#endif

/// `CLOCK_MONOTONIC` readings for the daemon's timers (the same clock systemd and the capture stamps use).
enum Monotonic {
    static func nanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    static func seconds() -> Double {
        Double(nanoseconds()) / 1e9
    }
}

extension Duration {
    /// Whole nanoseconds (saturating), for comparing with monotonic stamps.
    var nanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        guard seconds >= 0 else { return 0 }
        return UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
    }
}
