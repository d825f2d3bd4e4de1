import LightShowControl
import NIOCore
import Synchronization

/// Rings the board's listeners when the frame stream goes quiet. `FrameBroadcaster` sends a viewer a frame held back
/// for its pace only when a later event rings, so without this the last frame before the show falls silent (a stop's
/// dark frame) could wait for good. For a second after the stream stops (the longest a viewer's pace, 1 fps, holds a
/// frame back) the board is reminded every 100 ms. One timer on the event loop for all viewers (a timer per viewer
/// cost the daemon most of its CPU with 100 viewers: Tests/Benchmarks/web.sh), and only while one watches.
enum QuietStreamReminder {
    static let period = TimeAmount.milliseconds(100)
    static let reminders = 10

    static func start(events: ShowEventBoard, on loop: any EventLoop) -> RepeatedTask {
        let state = Quiet()
        return loop.scheduleRepeatedTask(initialDelay: period, delay: period) { _ in
            let sequence = events.latest.frame?.sequence ?? 0
            let remind = state.ticks.withLock { ticks in
                if sequence != ticks.sequence {
                    ticks = (sequence, 0)
                    return false
                }
                guard ticks.quiet < reminders else { return false }
                ticks.quiet += 1
                return true
            }
            if remind { events.remind() }
        }
    }

    /// The newest frame seen and how many reminders it has had.
    private final class Quiet: Sendable {
        let ticks = Mutex<(sequence: UInt64, quiet: Int)>((0, 0))
    }
}
