#if canImport(Glibc)
import Glibc
#endif
import LightShowCore

/// The one bounded FIFO between threads: a capture's reader and its consumer, a recording's writer and its
/// encoders. Bounding it keeps memory flat when the consumer is slower than the producer.
///
/// A producer on a thread of its own waits for room (`push`); one on the cooperative pool never blocks (`tryPush`,
/// then `whenSpace`). A consumer on a thread of its own waits for an item (`pop`, `pop(until:)`); an async one
/// suspends instead (`next`). Async consumers waiting at once each get the next item in turn, and all hear the end.
/// The lock is held only to move items, never while anyone works.
public final class BoundedQueue<Element: Sendable>: @unchecked Sendable {
    public enum PushResult: Sendable { case pushed, full, closed }

    private let capacity: Int
    // Guarded by `mutex`.
    private var items: [Element] = []
    private var head = 0
    /// Set by `finish`: no more pushes; consumers drain what is queued, then see the end (or the error).
    private var ending: Result<Void, any Error>?
    /// Set by `close`: no more pushes, and the consumer has gone (or the work was abandoned).
    private var closed = false
    private var spaceWaiters: [@Sendable () -> Void] = []
    /// Async consumers suspended in `next`, oldest first.
    private var asyncConsumers: [CheckedContinuation<Element?, any Error>] = []
    /// Threads asleep in `pop` and in `push`: each side is woken only when one of it waits, and one at a time (a
    /// recording's queues pass thousands of items a second between busy threads).
    private var waitingConsumers = 0
    private var waitingProducers = 0
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let notEmpty = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private let notFull = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    public init(capacity: Int) {
        self.capacity = max(1, capacity)
        pthread_mutex_init(mutex, nil)
        // Timed waits (`pop(until:)`) count on the monotonic clock, as every deadline here does.
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(notEmpty, &attributes)
        pthread_cond_init(notFull, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(notEmpty)
        pthread_cond_destroy(notFull)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        notEmpty.deallocate()
        notFull.deallocate()
    }

    private var count: Int { items.count - head }
    private var refusesPushes: Bool { closed || ending != nil }

    /// Async consumers suspended in `next` (for tests).
    var waitingAsyncConsumers: Int { locked { asyncConsumers.count } }

    /// True once `close` was called: a producer should stop.
    public var isClosed: Bool { locked { closed } }

    /// Adds `item`, waiting while the queue is full; false once it is closed or finished. Only for a producer on a
    /// thread of its own.
    @discardableResult
    public func push(_ item: Element) -> Bool {
        pthread_mutex_lock(mutex)
        while !refusesPushes && asyncConsumers.isEmpty && count >= capacity {
            waitingProducers += 1
            pthread_cond_wait(notFull, mutex)
            waitingProducers -= 1
        }
        return appendLocked(item)
    }

    /// Adds `item` if there is room, without waiting.
    public func tryPush(_ item: Element) -> PushResult {
        pthread_mutex_lock(mutex)
        if refusesPushes {
            pthread_mutex_unlock(mutex)
            return .closed
        }
        if asyncConsumers.isEmpty && count >= capacity {
            pthread_mutex_unlock(mutex)
            return .full
        }
        _ = appendLocked(item)
        return .pushed
    }

    /// Calls `wake` once there is room or the queue is closed (at once if that is already so).
    public func whenSpace(_ wake: @escaping @Sendable () -> Void) {
        pthread_mutex_lock(mutex)
        if refusesPushes || count < capacity {
            pthread_mutex_unlock(mutex)
            wake()
            return
        }
        spaceWaiters.append(wake)
        pthread_mutex_unlock(mutex)
    }

    /// The oldest item, waiting for one; nil once the queue is closed, or finished and drained.
    public func pop() -> Element? {
        pop(until: nil) ?? nil
    }

    /// The oldest item, waiting for one until `deadline` (monotonic nanoseconds; nil = for ever). Returns nil on
    /// time-out, `.some(nil)` once the queue is closed, or finished and drained.
    public func pop(until deadline: UInt64?) -> Element?? {
        pthread_mutex_lock(mutex)
        while !closed && ending == nil && count == 0 {
            waitingConsumers += 1
            guard let deadline else {
                pthread_cond_wait(notEmpty, mutex)
                waitingConsumers -= 1
                continue
            }
            var time = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
            let timedOut = pthread_cond_timedwait(notEmpty, mutex, &time) == ETIMEDOUT
            waitingConsumers -= 1
            if timedOut && count == 0 && !closed && ending == nil {
                pthread_mutex_unlock(mutex)
                return nil
            }
        }
        guard !closed, count > 0 else {
            pthread_mutex_unlock(mutex)
            return .some(nil)
        }
        return .some(takeLocked())
    }

    /// The oldest item for an async consumer, suspending until there is one; nil at the end, or throws the error
    /// the producer finished with once the queued items are taken. Cancelling a waiting task closes the queue: a
    /// consumer has gone, so the producer should stop.
    public func next() async throws -> Element? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Element?, any Error>) in
                pthread_mutex_lock(mutex)
                if !closed && count > 0 {
                    let item = takeLocked()
                    continuation.resume(returning: item)
                } else if closed {
                    pthread_mutex_unlock(mutex)
                    continuation.resume(returning: nil)
                } else if let ending {
                    pthread_mutex_unlock(mutex)
                    continuation.resume(with: ending.map { nil })
                } else {
                    asyncConsumers.append(continuation)
                    // A producer waiting for room hands its item straight over.
                    if waitingProducers > 0 { pthread_cond_signal(notFull) }
                    pthread_mutex_unlock(mutex)
                }
            }
        } onCancel: {
            close()
        }
    }

    /// The producer is done: consumers take what is queued, then see the end, or `error`.
    public func finish(throwing error: (any Error)? = nil) {
        pthread_mutex_lock(mutex)
        guard ending == nil else {
            pthread_mutex_unlock(mutex)
            return
        }
        ending = error.map { .failure($0) } ?? .success(())
        wakeAllAndUnlock()
    }

    /// Stops the queue: pushes are refused and consumers see the end at once; with `discardingPending`, what is
    /// queued is dropped too.
    public func close(discardingPending: Bool = false) {
        pthread_mutex_lock(mutex)
        closed = true
        if discardingPending {
            items.removeAll()
            head = 0
        }
        wakeAllAndUnlock()
    }

    /// Appends `item` (or hands it to the waiting async consumer) and unlocks; false if pushes are refused.
    private func appendLocked(_ item: Element) -> Bool {
        if refusesPushes {
            pthread_mutex_unlock(mutex)
            return false
        }
        if !asyncConsumers.isEmpty {
            let consumer = asyncConsumers.removeFirst()
            pthread_mutex_unlock(mutex)
            consumer.resume(returning: item)
            return true
        }
        items.append(item)
        if waitingConsumers > 0 { pthread_cond_signal(notEmpty) }
        pthread_mutex_unlock(mutex)
        return true
    }

    /// Takes the oldest item and unlocks, waking the producers that wait for room.
    private func takeLocked() -> Element {
        let item = items[head]
        head += 1
        if head > 32 && head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
        // A full queue wakes its producer once half of it is free, not for every item taken: the producer then
        // puts several in a row instead of waking for each.
        if waitingProducers > 0 && count <= capacity / 2 { pthread_cond_signal(notFull) }
        let waiters = spaceWaiters
        spaceWaiters = []
        pthread_mutex_unlock(mutex)
        for wake in waiters { wake() }
        return item
    }

    /// Wakes every waiter (threads, space waiters, the async consumer) and unlocks.
    private func wakeAllAndUnlock() {
        pthread_cond_broadcast(notEmpty)
        pthread_cond_broadcast(notFull)
        let waiters = spaceWaiters
        spaceWaiters = []
        let consumers = asyncConsumers
        asyncConsumers = []
        let ending = closed ? .success(()) : ending
        pthread_mutex_unlock(mutex)
        for wake in waiters { wake() }
        for consumer in consumers {
            consumer.resume(with: (ending ?? .success(())).map { nil })
        }
    }

    private func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }
}
