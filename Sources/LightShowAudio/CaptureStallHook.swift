#if canImport(Glibc)
import Glibc
#endif
import LightShowCore
import LightShowSystem

/// A test hook, documented in the README: with `LIGHTSHOW_TEST_STALL_CAPTURE_AFTER=SECONDS` in its environment, a
/// reader thread that reaches a checkpoint that many seconds after the first one blocks for ever, as a thread stuck
/// in `read(2)` would. It lets a test show that a blocked loop stops the watchdog's pings (which no fault injected
/// from outside the process can do reliably). Unset, it costs one comparison per loop.
enum CaptureStallHook {
    private static let stallAfterNanoseconds: UInt64? = {
        guard let text = getenv("LIGHTSHOW_TEST_STALL_CAPTURE_AFTER").map({ String(cString: $0) }),
              let seconds = Double(text), seconds.isFinite, seconds >= 0, seconds < 1e6 else { return nil }
        return UInt64(seconds * 1e9)
    }()

    private static let firstCheckpoint = MonotonicClock.now()

    static func checkpoint(now: UInt64) {
        guard let after = stallAfterNanoseconds, now >= firstCheckpoint, now - firstCheckpoint >= after else { return }
        while true { sleep(3600) }
    }
}
