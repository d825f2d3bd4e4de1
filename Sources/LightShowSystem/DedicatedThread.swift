#if canImport(Glibc)
import Glibc
#endif
public import LightShowCore

/// Starts a detached POSIX thread for blocking reads, so they never occupy the cooperative pool.
/// Plain pthreads rather than Foundation's `Thread` keep this module on the small `FoundationEssentials`-free footprint.
public enum DedicatedThread {
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// Runs `body` on a new thread; `name` appears in the error if the thread can't start.
    public static func start(name: String, _ body: @escaping @Sendable () -> Void) throws(LightShowError) {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { raw in
            let body = Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue()
            body.run()
            return nil
        }, context)
        guard result == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            throw LightShowError("cannot start the \(name) thread: \(String(cString: strerror(result)))", exitStatus: .ioError)
        }
        pthread_detach(thread)
    }
}
