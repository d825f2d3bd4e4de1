import Foundation

/// Runs blocking test code (socket reads, polls) on a thread of its own, so tests running in parallel don't
/// starve the small cooperative pool that timing-sensitive code under test needs.
public enum OffPool {
    public static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
        }
    }

    /// `Wait.until` without holding a pool thread: true once `condition` holds, polled until `timeout`.
    public static func until(timeout: Double = 30, _ condition: @escaping @Sendable () -> Bool) async -> Bool {
        (try? await run { Wait.until(timeout: timeout, condition) }) ?? false
    }
}
