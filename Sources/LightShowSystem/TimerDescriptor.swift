import CTimerFD
#if canImport(Glibc)
import Glibc
#endif

/// A timerfd on the monotonic clock: a descriptor that becomes readable at a deadline, so a thread sleeping in
/// poll wakes for it beside its other descriptors. Setting it is one system call and wakes nobody.
public struct TimerDescriptor: ~Copyable, Sendable {
    public let descriptor: OwnedDescriptor

    /// A disarmed, non-blocking, close-on-exec timer.
    public init() throws(SystemCallError) {
        let fd = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK) | Int32(TFD_CLOEXEC))
        guard fd >= 0 else { throw .current("timerfd_create") }
        descriptor = OwnedDescriptor(adopting: fd)
    }

    public var rawValue: Int32 { descriptor.rawValue }

    /// Fires at `deadline` (monotonic nanoseconds; 0 disarms it), replacing any earlier setting.
    public func set(deadline: UInt64) {
        var setting = itimerspec()
        setting.it_value = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        _ = timerfd_settime(descriptor.rawValue, Int32(TFD_TIMER_ABSTIME), &setting, nil)
    }

    /// Clears a firing, so the descriptor stops being readable.
    public func consume() {
        var expirations = [UInt8](repeating: 0, count: MemoryLayout<UInt64>.size)
        // Not fired (EAGAIN) or failed: either way there is nothing to clear.
        _ = try? FileDescriptorIO.read(descriptor.rawValue, into: &expirations)
    }
}
