public import LightShowCore

/// One long-lived thread that runs blocking jobs in order, for work that comes again and again (each reload's file
/// read and lights' reconfiguration). A thread per job costs its start each time, and glibc may give each new
/// thread a malloc arena of its own: 5,000 reloads, each on a new thread, left the daemon 80 kB of private memory
/// more than on one thread.
public final class WorkerThread: Sendable {
    private let jobs = BoundedQueue<@Sendable () -> Void>(capacity: 64)

    /// Starts the thread, named `name` as `DedicatedThread.start` names it.
    public init(name: String) throws(LightShowError) {
        let jobs = jobs
        try DedicatedThread.start(name: name) {
            while let job = jobs.pop() { job() }
        }
    }

    /// The thread runs what is queued, then ends.
    deinit { jobs.finish() }

    /// Runs `body` on the thread after the jobs queued before it, and waits for it to finish, cancelled or not,
    /// without holding a thread of the cooperative pool.
    public func complete<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
            let queued = jobs.push { continuation.resume(with: Result { try body() }) }
            if !queued {
                continuation.resume(throwing: LightShowError("a worker thread has stopped", exitStatus: .ioError))
            }
        }
    }
}
