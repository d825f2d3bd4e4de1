import LightShowCore
import LightShowSystem
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Interrupts a blocked system call on one thread with a signal whose handler is installed without SA_RESTART, so
/// the call fails with EINTR (the kernel does not restart it): what the System wrappers must absorb.
enum SignalInterruption {
    static let signalNumber = SIGUSR2
    static let handled = Atomic<Int>(0)

    /// Installs the counting handler (once per process; the same handler every time).
    static func install() {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in SignalInterruption.handled.add(1, ordering: .relaxed) }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(signalNumber, &action, nil)
    }

    /// Lets the calling thread take the signal (threads inherit their creator's mask, and the test runner's
    /// threads may block it).
    static func unblockOnThisThread() {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, signalNumber)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// Signals `thread` until its handler has run `count` more times, or `isDone` says the thread went on.
    static func interrupt(_ thread: pthread_t, times count: Int, isDone: () -> Bool) {
        let target = handled.load(ordering: .relaxed) + count
        let giveUp = MonotonicClock.now() + 10_000_000_000
        while handled.load(ordering: .relaxed) < target && !isDone() && MonotonicClock.now() < giveUp {
            pthread_kill(thread, signalNumber)
            MonotonicClock.sleep(seconds: 0.005)
        }
    }
}

/// A blocking call on a thread of its own that takes `SignalInterruption`'s signal.
final class InterruptibleCall<Result: Sendable>: Sendable {
    private let thread = Mutex<pthread_t?>(nil)
    private let outcome = Mutex<Result?>(nil)
    private let started: WakeSignal
    private let done: WakeSignal

    /// Starts `body` and returns once its thread is about to call it.
    init(_ body: @escaping @Sendable () -> Result) throws {
        SignalInterruption.install()
        started = try WakeSignal()
        done = try WakeSignal()
        try DedicatedThread.start(name: "test-eintr") { [self] in
            SignalInterruption.unblockOnThisThread()
            thread.withLock { $0 = pthread_self() }
            started.signal()
            let result = body()
            outcome.withLock { $0 = result }
            done.signal()
        }
        _ = started.wait(for: .seconds(10))
    }

    /// What the call returned; nil while it is still blocked.
    var result: Result? { outcome.withLock { $0 } }

    /// Signals the thread until its handler has run `times` times (or the call returned); the number handled.
    func interrupt(times: Int) -> Int {
        guard let target = thread.withLock({ $0 }) else { return 0 }
        let before = SignalInterruption.handled.load(ordering: .relaxed)
        SignalInterruption.interrupt(target, times: times) { result != nil }
        return SignalInterruption.handled.load(ordering: .relaxed) - before
    }

    /// Waits up to 10 s for the call to return; its result.
    func waitForResult() -> Result? {
        _ = done.wait(for: .seconds(10))
        return result
    }
}
