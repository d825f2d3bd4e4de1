import LightShowCore
import LightShowSystem

/// Releases audio no faster than the wall clock: frame N is due N / rate seconds after the first.
struct RealtimePacer {
    let sampleRate: Int
    private var origin: UInt64?

    init(sampleRate: Int) { self.sampleRate = sampleRate }

    /// Sleeps until the frame just after `endFrame` is due, and returns that moment (the capture time of the block).
    mutating func wait(untilFrame endFrame: Int64) -> UInt64 {
        let start = origin ?? MonotonicClock.now()
        origin = start
        let due = start + UInt64(Double(endFrame) / Double(sampleRate) * 1e9)
        if due > MonotonicClock.now() { MonotonicClock.sleep(until: due) }
        return due
    }
}
