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
        pthread_detach(thread)
    }

    /// Runs `body` on a new thread named `name` and waits for its result there, so blocking work (a child process,
    /// a DNS lookup, a lock held by such work) never holds a thread of the cooperative pool.
    public static func run<Value: Sendable>(
        name: String, _ body: @escaping @Sendable () throws(LightShowError) -> Value
    ) async throws(LightShowError) -> Value {
        let result: Result<Value, LightShowError> = await withCheckedContinuation { continuation in
            do throws(LightShowError) {
                try start(name: name) {
                    continuation.resume(returning: Result { () throws(LightShowError) in try body() })
                }
            } catch {
                continuation.resume(returning: .failure(error))
            }
        }
        return try result.get()
    }
}
