/// Delays between attempts to reach something lost (a capture device, MPD, a sound server): doubling from
/// `initial` up to `maximum` seconds, back to `initial` after a success.
public struct ReopenBackoff: Sendable {
    let initial: Double
    let maximum: Double
    private var upcoming: Double

    public init(initial: Double = 0.5, maximum: Double = 5) {
        self.initial = initial
        self.maximum = maximum
        upcoming = initial
    }

    /// The delay before the next attempt; each call doubles the one after, up to the maximum.
    public mutating func next() -> Double {
        defer { upcoming = min(maximum, upcoming * 2) }
        return upcoming
    }

    public mutating func reset() { upcoming = initial }
}
