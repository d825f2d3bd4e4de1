#if canImport(Glibc)
import Glibc
#endif

/// A bounded FIFO from a producer to worker threads: `pop` waits while empty, `close` wakes everyone.
/// A producer on the cooperative pool never blocks (`tryPush`, and when full, `whenSpace`); one on a thread of
/// its own may wait for room (`push`).
/// Bounding it keeps memory flat when encoding is slower than analysis.
final class BlockingQueue<Element>: @unchecked Sendable {
    private var items: [Element] = []
    private var head = 0
    private let capacity: Int
    private var closed = false
    private var spaceWaiters: [@Sendable () -> Void] = []
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(changed, nil)
    }

    deinit {
        pthread_cond_destroy(changed)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        changed.deallocate()
    }

    private var count: Int { items.count - head }

    enum PushResult { case pushed, full, closed }

    /// Adds `item` if there is room, without waiting.
    func tryPush(_ item: Element) -> PushResult {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        if closed { return .closed }
        if count >= capacity { return .full }
        items.append(item)
        pthread_cond_broadcast(changed)
        return .pushed
    }

    /// Adds `item`, waiting while the queue is full; false once it is closed. Only for a producer on a thread of
    /// its own.
    func push(_ item: Element) -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !closed && count >= capacity { pthread_cond_wait(changed, mutex) }
        if closed { return false }
        items.append(item)
        pthread_cond_broadcast(changed)
        return true
    }

    /// Calls `wake` once there is room or the queue is closed (at once if that is already so).
    func whenSpace(_ wake: @escaping @Sendable () -> Void) {
        pthread_mutex_lock(mutex)
        if closed || count < capacity {
            pthread_mutex_unlock(mutex)
            wake()
            return
        }
        spaceWaiters.append(wake)
        pthread_mutex_unlock(mutex)
    }

    /// Clears and returns the space waiters; call with the mutex held, and run them after releasing it.
    private func takeSpaceWaiters() -> [@Sendable () -> Void] {
        let waiters = spaceWaiters
        spaceWaiters = []
        return waiters
    }

    /// The oldest item, waiting for one; nil once the queue is closed and drained.
    func pop() -> Element? {
        pthread_mutex_lock(mutex)
        while !closed && count == 0 { pthread_cond_wait(changed, mutex) }
        guard count > 0 else {
            pthread_mutex_unlock(mutex)
            return nil
        }
        let item = items[head]
        head += 1
        if head > 64 && head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
        pthread_cond_broadcast(changed)
        let waiters = takeSpaceWaiters()
        pthread_mutex_unlock(mutex)
        for wake in waiters { wake() }
        return item
    }

    /// No more pushes; `pop` drains what is left, then returns nil. With `discardingPending`, drops what is queued.
    func close(discardingPending: Bool = false) {
        pthread_mutex_lock(mutex)
        closed = true
        if discardingPending {
            items.removeAll()
            head = 0
        }
        pthread_cond_broadcast(changed)
        let waiters = takeSpaceWaiters()
        pthread_mutex_unlock(mutex)
        for wake in waiters { wake() }
    }
}
