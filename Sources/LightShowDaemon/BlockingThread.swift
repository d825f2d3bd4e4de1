#if canImport(Glibc)
import Glibc
#endif

/// Starts a detached thread for blocking I/O, which must never run on Swift's cooperative pool.
enum BlockingThread {
    private final class Work {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    /// Runs `body` on a new thread. Returns false if none could be made.
    @discardableResult
    static func start(_ body: @escaping @Sendable () -> Void) -> Bool {
        let work = Unmanaged.passRetained(Work(body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, { raw in
            guard let raw else { return nil }
            Unmanaged<Work>.fromOpaque(raw).takeRetainedValue().body()
            return nil
        }, work)
        guard status == 0 else {
            Unmanaged<Work>.fromOpaque(work).release()
            return false
        }
        pthread_detach(thread)
        return true
    }
}
