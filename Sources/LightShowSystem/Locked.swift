import Synchronization

/// A value behind a `Mutex`, shared by reference between a thread and its observers (a `Mutex` itself can't be
/// copied into two owners).
public final class Locked<Value>: Sendable {
    private let mutex: Mutex<Value>

    public init(_ value: sending Value) {
        mutex = Mutex(value)
    }

    public func withLock<T, E: Error>(_ body: (inout sending Value) throws(E) -> sending T) throws(E) -> sending T {
        try mutex.withLock(body)
    }

    /// Runs `body` only if the lock is free now; nil when another thread holds it.
    public func withLockIfAvailable<T, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending T
    ) throws(E) -> sending T? {
        try mutex.withLockIfAvailable(body)
    }
}

extension Locked where Value: Sendable {
    public var current: Value { withLock { $0 } }
}
