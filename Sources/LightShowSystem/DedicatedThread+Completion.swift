import LightShowCore

extension DedicatedThread {
    /// Runs `body` on a new thread named `name` and waits for it to finish, cancelled or not, without holding a
    /// thread of the cooperative pool: for work that must end before the caller goes on (a recording's last frames
    /// on disk). `run`, by contrast, stops waiting when cancelled.
    public static func complete<Value: Sendable>(
        name: String, _ body: @escaping @Sendable () throws -> Value
    ) async throws -> Value {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
            do throws(LightShowError) {
                try start(name: name) { continuation.resume(with: Result { try body() }) }
            } catch {
                continuation.resume(throwing: error)
            }
        }
    }
}
