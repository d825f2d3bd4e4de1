/// Delays between attempts to reopen a lost device: 0.5 s, doubling, at most 5 s.
struct ReopenBackoff: Sendable {
    let initial: Double
    let maximum: Double
    private var upcoming: Double

    init(initial: Double = 0.5, maximum: Double = 5) {
        self.initial = initial
        self.maximum = maximum
        upcoming = initial
    }

    /// The delay before the next attempt; each call doubles the one after, up to the maximum.
    mutating func next() -> Double {
        defer { upcoming = min(maximum, upcoming * 2) }
        return upcoming
    }

    mutating func reset() { upcoming = initial }
}
