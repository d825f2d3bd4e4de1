/// The newest value per key, for a bounded number of keys, in the order keys first came: what goes between the
/// show and the broker instead of a queue. A flood of updates to one topic keeps one value, so neither side ever
/// waits for the other or grows without bound.
public struct LatestValueStore<Value: Sendable>: Sendable {
    public let capacity: Int
    private var keys: [String] = []
    private var values: [String: Value] = [:]
    private var dirty: Set<String> = []

    public init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Stores `value` under `key` and marks it to be sent. False (and nothing stored) when `key` is new and the store
    /// is full.
    @discardableResult
    public mutating func set(_ key: String, _ value: Value) -> Bool {
        if values[key] == nil {
            guard keys.count < capacity else { return false }
            keys.append(key)
        }
        values[key] = value
        dirty.insert(key)
        return true
    }

    public var isEmpty: Bool { keys.isEmpty }
    public var hasPending: Bool { !dirty.isEmpty }
    public func value(_ key: String) -> Value? { values[key] }

    /// The values set since the last take, in first-set order; they stay stored (to be sent again after `markAllPending`).
    public mutating func takePending() -> [(key: String, value: Value)] {
        guard !dirty.isEmpty else { return [] }
        defer { dirty.removeAll(keepingCapacity: true) }
        return keys.compactMap { key in dirty.contains(key) ? (key, values[key]!) : nil }
    }

    /// Every stored value, to be sent again (a new connection, Home Assistant restarted).
    public mutating func markAllPending() {
        dirty = Set(keys)
    }

    /// Takes every value out, in first-set order, and empties the store.
    public mutating func drain() -> [(key: String, value: Value)] {
        defer {
            keys.removeAll(keepingCapacity: true)
            values.removeAll(keepingCapacity: true)
            dirty.removeAll(keepingCapacity: true)
        }
        return keys.map { ($0, values[$0]!) }
    }
}
