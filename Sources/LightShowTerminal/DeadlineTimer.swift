import LightShowSystem
import LightShowCore

/// A one-shot deadline on the monotonic clock that another thread can sleep on (`poll` on `descriptor`):
/// setting or clearing it is one system call and wakes nobody, so the thread drawing frames can leave the viewer a
/// fallback without ringing it. Owns a timerfd.
final class DeadlineTimer: Sendable {
    private let timer: TimerDescriptor
    var descriptor: Int32 { timer.rawValue }

    init() throws(LightShowError) {
        do throws(SystemCallError) {
            timer = try TimerDescriptor()
        } catch {
            throw LightShowError("cannot create a timer: \(error.message)", exitStatus: .ioError)
        }
    }

    /// Fires at `deadline` (monotonic nanoseconds; at once if that has passed), replacing any earlier setting.
    func arm(at deadline: UInt64) {
        timer.set(deadline: max(1, deadline))
    }

    /// Won't fire until armed again.
    func disarm() {
        timer.set(deadline: 0)
    }

    /// Clears a firing, so `descriptor` stops being readable.
    func consume() {
        timer.consume()
    }
}
