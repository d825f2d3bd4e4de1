public import LightShowCore
import LightShowSystem
#if canImport(Glibc)
import Glibc
#endif

/// Holds every frame back by the sync offset (`[output] delay`) before a viewer shows it, for speakers that play
/// late. The engine only queues the frame and wakes the sink's own thread, which hands each frame on once it is
/// due, in order, then says the batch is done. A delay of 0 passes frames straight through on the engine's thread,
/// once the sink's thread has handed over every older frame: the inner sink is never called from both at once.
public final class DelayedSink: ShowSink {
    private struct Shared: Sendable {
        var line = FrameDelay<ShowFrame>()
        var delay: UInt64
        var closed = false
        /// The sink's thread is handing frames it took from `line` to the inner sink.
        var delivering = false

        /// Frames may go straight through: no delay, and none older still waiting or on its way.
        var passesThrough: Bool { delay == 0 && line.isEmpty && !delivering }
    }

    private let inner: any ShowSink
    private let shared: Locked<Shared>
    private let wake: WakeSignal

    public init(_ inner: any ShowSink, delayMilliseconds: Double) throws(LightShowError) {
        self.inner = inner
        shared = Locked(Shared(delay: Self.nanoseconds(delayMilliseconds)))
        do {
            wake = try WakeSignal()
        } catch {
            throw LightShowError("output delay: \(error)", exitStatus: .ioError)
        }
        try DedicatedThread.start(name: "ls-delay") { [inner, shared, wake] in
            Self.run(inner: inner, shared: shared, wake: wake)
        }
    }

    deinit {
        close()
    }

    /// A new delay (a reload), for frames from now on and those still waiting.
    public func setDelay(milliseconds: Double) {
        shared.withLock { $0.delay = Self.nanoseconds(milliseconds) }
        wake.signal()
    }

    /// Ends the thread; frames still waiting are dropped.
    public func close() {
        shared.withLock { $0.closed = true }
        wake.signal()
    }

    public func show(_ frame: ShowFrame) throws {
        let now = MonotonicClock.now()
        let direct = shared.withLock { shared in
            guard !shared.passesThrough else { return true }
            shared.line.push(frame, at: now)
            return false
        }
        if direct { try inner.show(frame) } else { wake.signal() }
    }

    public func framesDone() {
        let direct = shared.withLock { $0.passesThrough }
        if direct { inner.framesDone() }
    }

    private static func run(inner: any ShowSink, shared: Locked<Shared>, wake: WakeSignal) {
        while true {
            wake.consume()
            let now = MonotonicClock.now()
            let (due, next, closed) = shared.withLock { shared in
                let due = shared.line.takeDue(delayedBy: shared.delay, at: now)
                shared.delivering = !due.isEmpty
                return (due, shared.line.nextDue(delayedBy: shared.delay, at: now), shared.closed)
            }
            if closed { return }
            // A viewer's sink doesn't fail; one that did would only lose this frame.
            for frame in due { try? inner.show(frame) }
            if !due.isEmpty {
                inner.framesDone()
                shared.withLock { $0.delivering = false }
            }
            var descriptor = pollfd(fd: wake.readFD, events: Int16(POLLIN), revents: 0)
            _ = Poll.wait(&descriptor, count: 1, until: next)
        }
    }

    private static func nanoseconds(_ milliseconds: Double) -> UInt64 {
        UInt64((min(OutputSettings.maximumDelayMilliseconds, max(0, milliseconds)) * 1e6).rounded())
    }
}
