/// Counts one light's full-contrast flashes and refuses any that would make more than `maximum` within one
/// second (WCAG 2.3.1: at most three flashes in any one-second period). Keeps the times of the last `maximum`
/// flashes it admitted, so it allocates nothing after `init`.
public struct FlashLimiter: Equatable, Sendable {
    public let maximum: Int
    /// The admitted flashes' times, a ring: `next` is the oldest once it is full.
    private var times: [Double]
    private var next = 0
    private var count = 0

    public init(maximum: Int) {
        self.maximum = max(0, maximum)
        times = [Double](repeating: 0, count: self.maximum)
    }

    /// Whether a flash at `time` (seconds, not before the last one) keeps every one-second window at or under
    /// the maximum; an admitted flash is counted.
    public mutating func admit(at time: Double) -> Bool {
        guard maximum > 0 else { return false }
        // A nanosecond of slack: flashes exactly a second apart lie in different windows.
        if count == maximum, time - times[next] < 1 - 1e-9 { return false }
        times[next] = time
        next = (next + 1) % maximum
        count = min(count + 1, maximum)
        return true
    }
}
