/// A rate with room for a burst: `burst` turns at once, then `perSecond` a second. Times are monotonic
/// nanoseconds. Paces the viewer's draws (`DrawPacer`) and the daemon's STATUS= lines.
public struct TokenBucket: Sendable {
    private let interval: Double
    private let burst: Double
    private var tokens: Double
    private var lastRefill: UInt64?

    public init(perSecond: Double, burst: Double) {
        interval = 1e9 / max(1e-9, perSecond)
        self.burst = max(1, burst)
        tokens = self.burst
    }

    /// Takes a turn at `now` and returns nil, or, when none is left, takes nothing and returns when one will be.
    public mutating func take(at now: UInt64) -> UInt64? {
        refill(at: now)
        guard tokens >= 1 else { return now + UInt64(((1 - tokens) * interval).rounded(.up)) }
        tokens -= 1
        return nil
    }

    /// Spends a turn at `now` whether or not one is left (a turn taken when `take` said it would be there).
    public mutating func spend(at now: UInt64) {
        refill(at: now)
        tokens = max(0, tokens - 1)
    }

    private mutating func refill(at now: UInt64) {
        if let last = lastRefill, now > last {
            tokens = min(burst, tokens + Double(now - last) / interval)
        }
        lastRefill = max(lastRefill ?? now, now)
    }
}
