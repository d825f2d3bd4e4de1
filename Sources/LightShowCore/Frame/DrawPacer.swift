/// Paces drawing to a frame rate without delaying frames that arrive on time: a token bucket that refills at
/// `framesPerSecond` and holds at most `burst` draws. Frames that arrive in quick pairs (a source whose chunks come
/// in two pieces) are both drawn at once; a longer burst (catching up after a stall) is spread out to the rate.
/// Times are monotonic nanoseconds.
public struct DrawPacer: Sendable {
    private let interval: Double
    private let burst: Double
    private var tokens: Double
    private var lastRefill: UInt64?

    public init(framesPerSecond: Double, burst: Int = 2) {
        interval = 1e9 / max(1, framesPerSecond)
        self.burst = Double(max(1, burst))
        tokens = self.burst
    }

    /// True, taking a draw, when one is allowed at `now`.
    public mutating func take(at now: UInt64) -> Bool {
        refill(at: now)
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }

    /// When the next draw is allowed (`now` or later).
    public mutating func nextAllowed(at now: UInt64) -> UInt64 {
        refill(at: now)
        return tokens >= 1 ? now : now + UInt64(((1 - tokens) * interval).rounded(.up))
    }

    private mutating func refill(at now: UInt64) {
        if let last = lastRefill, now > last {
            tokens = min(burst, tokens + Double(now - last) / interval)
        }
        lastRefill = max(lastRefill ?? now, now)
    }
}
