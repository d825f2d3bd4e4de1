#if canImport(Glibc)
import Glibc
#endif

/// A bounded FIFO between threads: `push` waits while full, `pop` waits while empty, `close` wakes everyone.
/// Bounding it keeps memory flat when encoding is slower than analysis.
final class BlockingQueue<Element>: @unchecked Sendable {
    private var items: [Element] = []
    private var head = 0
    private let capacity: Int
    private var closed = false
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

    /// Adds `item`, waiting for room. Returns false (dropping the item) once the queue is closed.
    @discardableResult
    func push(_ item: Element) -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !closed && count >= capacity { pthread_cond_wait(changed, mutex) }
        guard !closed else { return false }
        items.append(item)
        pthread_cond_broadcast(changed)
        return true
    }

    /// The oldest item, waiting for one; nil once the queue is closed and drained.
    func pop() -> Element? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !closed && count == 0 { pthread_cond_wait(changed, mutex) }
        guard count > 0 else { return nil }
        let item = items[head]
        head += 1
        if head > 64 && head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
        pthread_cond_broadcast(changed)
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
        pthread_mutex_unlock(mutex)
    }
}
