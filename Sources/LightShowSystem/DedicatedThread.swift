#if canImport(Glibc)
import Glibc
#endif
public import LightShowCore

/// Starts a detached POSIX thread for blocking work (reads, waits), so it never occupies the cooperative pool.
/// Plain pthreads rather than Foundation's `Thread` keep this module on the small `FoundationEssentials`-free footprint.
public enum DedicatedThread {
    private final class Body {
        let name: String
        let run: @Sendable () -> Void
        init(_ name: String, _ run: @escaping @Sendable () -> Void) {
            self.name = name
            self.run = run
        }

        /// Names the calling thread: by the thread itself, since a detached thread's handle may be gone by the time
        /// its creator looks; through /proc, since glibc's pthread_setname_np isn't in Swift's Glibc module. The
        /// kernel keeps 15 bytes. The name is for diagnosis only: failing to set it is ignored.
        func nameCurrentThread() {
            let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
            guard fd >= 0 else { return }
            _ = try? FileDescriptorIO.writeAll(fd, Array(name.utf8.prefix(15)))
            close(fd)
        }
    }

    /// Runs `body` on a new thread named `name` (as `top -H` and `perf` show it: 15 bytes at most, longer names
    /// are cut); the name also appears in the error if the thread can't start.
    public static func start(name: String, _ body: @escaping @Sendable () -> Void) throws(LightShowError) {
        pthread_detach(try spawn(name: name, body))
    }

    /// A thread someone waits for the end of (`join`), such as an encoder whose last frame must be on disk.
    public final class Joinable: @unchecked Sendable {
        private var thread: pthread_t?
        fileprivate init(_ thread: pthread_t) { self.thread = thread }

        /// Waits for the thread's body to return. Call once, from one thread.
        public func join() {
            guard let thread else { return }
            self.thread = nil
            pthread_join(thread, nil)
        }

        deinit {
            if let thread { pthread_detach(thread) }
        }
    }

    /// Like `start`, for a thread whose end is waited for with `join()`.
    public static func startJoinable(name: String, _ body: @escaping @Sendable () -> Void) throws(LightShowError) -> Joinable {
        Joinable(try spawn(name: name, body))
    }

    private static func spawn(name: String, _ body: @escaping @Sendable () -> Void) throws(LightShowError) -> pthread_t {
        let context = Unmanaged.passRetained(Body(name, body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { raw in
            let body = Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue()
            body.nameCurrentThread()
            body.run()
            return nil
        }, context)
        guard result == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            throw LightShowError("cannot start the \(name) thread: \(String(cString: strerror(result)))", exitStatus: .ioError)
        }
        return thread
    }

    /// Runs `body` on a new thread named `name` and waits for its result there, so blocking work (a child process,
    /// a DNS lookup, a lock held by such work) never holds a thread of the cooperative pool. Cancelling the waiting
    /// task ends the wait at once (throwing): a shutdown must not wait for a lookup that never answers. The thread
    /// then finishes on its own, or ends with the process.
    public static func run<Value: Sendable>(
        name: String, _ body: @escaping @Sendable () throws(LightShowError) -> Value
    ) async throws(LightShowError) -> Value {
        // Whoever comes first, the thread or the cancellation, takes the continuation and resumes it.
        let waiter = Locked<CheckedContinuation<Result<Value, LightShowError>, Never>?>(nil)
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Value, LightShowError>, Never>) in
                waiter.withLock { $0 = continuation }
                // Cancelled already: the work isn't started at all.
                if Task.isCancelled {
                    waiter.withLock { $0.take() }?.resume(returning: .failure(Self.cancelled(name)))
                    return
                }
                do throws(LightShowError) {
                    try start(name: name) {
                        let result = Result { () throws(LightShowError) in try body() }
                        waiter.withLock { $0.take() }?.resume(returning: result)
                    }
                } catch {
                    waiter.withLock { $0.take() }?.resume(returning: .failure(error))
                }
            }
        } onCancel: {
            waiter.withLock { $0.take() }?.resume(returning: .failure(Self.cancelled(name)))
        }
        return try result.get()
    }

    private static func cancelled(_ name: String) -> LightShowError {
        LightShowError("cancelled while waiting for the \(name) thread", exitStatus: .ioError)
    }
}
