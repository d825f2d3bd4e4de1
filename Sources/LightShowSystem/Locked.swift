public import Synchronization

/// A value behind a `Mutex`, shared by reference between a thread and its observers (a `Mutex` itself can't be
/// copied into two owners). Inlinable, so callers in other modules get code specialised for their value: the
/// generic version looked up type metadata, behind a lock of the runtime's, on every call (5% of a live show's CPU).
public final class Locked<Value>: Sendable {
    @usableFromInline let mutex: Mutex<Value>

    public init(_ value: sending Value) {
        mutex = Mutex(value)
    }

    @inlinable public func withLock<T, E: Error>(_ body: (inout sending Value) throws(E) -> sending T) throws(E) -> sending T {
        try mutex.withLock(body)
    }

    /// Runs `body` only if the lock is free now; nil when another thread holds it.
    @inlinable public func withLockIfAvailable<T, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending T
    ) throws(E) -> sending T? {
        try mutex.withLockIfAvailable(body)
    }
}

extension Locked where Value: Sendable {
    @inlinable public var current: Value { withLock { $0 } }
}
