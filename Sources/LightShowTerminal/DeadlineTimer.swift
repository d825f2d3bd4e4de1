import CTimerFD
#if canImport(Glibc)
import Glibc
#endif
import LightShowSystem
import LightShowCore

/// A one-shot deadline on the monotonic clock that another thread can sleep on (`poll` on `descriptor`):
/// setting or clearing it is one system call and wakes nobody, so the thread drawing frames can leave the viewer a
/// fallback without ringing it. Owns a timerfd.
final class DeadlineTimer: Sendable {
    let descriptor: Int32

    init() throws(LightShowError) {
        descriptor = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK) | Int32(TFD_CLOEXEC))
        guard descriptor >= 0 else {
            throw LightShowError("cannot create a timer: \(String(cString: strerror(errno)))", exitStatus: .ioError)
        }
    }

    deinit {
        close(descriptor)
    }

    /// Fires at `deadline` (monotonic nanoseconds; at once if that has passed), replacing any earlier setting.
    func arm(at deadline: UInt64) {
        set(max(1, deadline))
    }

    /// Won't fire until armed again.
    func disarm() {
        set(0)
    }

    /// Clears a firing, so `descriptor` stops being readable.
    func consume() {
        var expirations = [UInt8](repeating: 0, count: MemoryLayout<UInt64>.size)
        // Not fired (EAGAIN) or failed: either way there is nothing to clear.
        _ = try? FileDescriptorIO.read(descriptor, into: &expirations)
    }

    private func set(_ deadline: UInt64) {
        var setting = itimerspec()
        setting.it_value = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        _ = timerfd_settime(descriptor, Int32(TFD_TIMER_ABSTIME), &setting, nil)
    }
}
