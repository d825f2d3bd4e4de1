/// A delay line of timestamped values (monotonic nanoseconds) read at several delays: what each reader shows at a
/// moment is the newest value that arrived at least its delay before. Pure; the caller owns the clock.
public struct FrameDelay<Value: Sendable>: Sendable {
    private var entries: [(arrival: UInt64, value: Value)] = []

    public init() {}

    public var isEmpty: Bool { entries.isEmpty }

    /// Adds a value that arrived at `arrival` (not before the last one's).
    public mutating func push(_ value: Value, at arrival: UInt64) {
        entries.append((arrival, value))
    }

    /// The newest value that arrived at least `delay` before `now`, and when it arrived.
    public func value(delayedBy delay: UInt64, at now: UInt64) -> (value: Value, arrival: UInt64)? {
        guard let index = newestIndex(delayedBy: delay, at: now) else { return nil }
        return (entries[index].value, entries[index].arrival)
    }

    /// When the next value comes due for a reader at `delay`, if one is waiting.
    public func nextDue(delayedBy delay: UInt64, at now: UInt64) -> UInt64? {
        let next = newestIndex(delayedBy: delay, at: now).map { $0 + 1 } ?? 0
        return next < entries.count ? entries[next].arrival &+ delay : nil
    }

    /// Drops what no reader at `delay` or less can still show: everything before the value it shows now.
    public mutating func discard(beyond delay: UInt64, at now: UInt64) {
        guard let index = newestIndex(delayedBy: delay, at: now), index > 0 else { return }
        entries.removeFirst(index)
    }

    /// Every value due for a reader at `delay`, oldest first, taken out of the line.
    public mutating func takeDue(delayedBy delay: UInt64, at now: UInt64) -> [Value] {
        guard let index = newestIndex(delayedBy: delay, at: now) else { return [] }
        defer { entries.removeFirst(index + 1) }
        return entries[...index].map(\.value)
    }

    private func newestIndex(delayedBy delay: UInt64, at now: UInt64) -> Int? {
        // Values arrive in order: the due ones are a prefix.
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].arrival &+ delay <= now { low = middle + 1 } else { high = middle }
        }
        return low > 0 ? low - 1 : nil
    }
}
