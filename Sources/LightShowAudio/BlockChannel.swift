#if canImport(Glibc)
import Glibc
#endif
import LightShowCore
import LightShowSystem

/// Hands sample blocks from a reader thread to an async consumer.
///
/// The reader blocks (it runs on its own thread); the consumer suspends and never blocks the cooperative pool.
/// When `capacity` blocks wait unread, the reader waits too, so memory stays bounded; a live capture that waits
/// too long overruns its device, which recovers and resumes with fresh audio rather than queueing stale audio.
/// When the consumer's stream is cancelled or released, `isClosed` turns true and `send` returns false.
final class BlockChannel: @unchecked Sendable {
    private let capacity: Int
    // Guarded by `mutex`.
    private var queue: [SampleBlock] = []
    private var head = 0
    private var ending: Result<Void, any Error>?
    private var closed = false
    private var waiter: CheckedContinuation<SampleBlock?, any Error>?

    /// Readable once the consumer has gone, for a reader that sleeps in `poll` (nil if the system refused it:
    /// such a reader then notices only at its next wake-up).
    let closedSignal = try? WakeSignal()

    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let spaceAvailable = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(spaceAvailable, nil)
    }

    deinit {
        pthread_cond_destroy(spaceAvailable)
        pthread_mutex_destroy(mutex)
        spaceAvailable.deallocate()
        mutex.deallocate()
    }

    private func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }

    /// True once the consumer has gone; the reader should stop and release its device.
    var isClosed: Bool { locked { closed } }

    /// Queues `block` for the consumer. Returns false when the consumer has gone.
    @discardableResult
    func send(_ block: SampleBlock) -> Bool {
        pthread_mutex_lock(mutex)
        while true {
            if closed || ending != nil {
                pthread_mutex_unlock(mutex)
                return false
            }
            if let waiter {
                self.waiter = nil
                pthread_mutex_unlock(mutex)
                waiter.resume(returning: block)
                return true
            }
            if queue.count - head < capacity { break }
            pthread_cond_wait(spaceAvailable, mutex)
        }
        compact()
        queue.append(block)
        pthread_mutex_unlock(mutex)
        return true
    }

    /// Ends the stream after the queued blocks: normally, or with `error`.
    func finish(throwing error: (any Error)? = nil) {
        pthread_mutex_lock(mutex)
        guard ending == nil else { pthread_mutex_unlock(mutex); return }
        ending = error.map { .failure($0) } ?? .success(())
        let waiter = self.waiter
        self.waiter = nil
        pthread_mutex_unlock(mutex)
        guard let waiter else { return }
        if let error { waiter.resume(throwing: error) } else { waiter.resume(returning: nil) }
    }

    /// The consumer left: wake the reader so it can stop.
    func close() {
        pthread_mutex_lock(mutex)
        closed = true
        let waiter = self.waiter
        self.waiter = nil
        pthread_cond_broadcast(spaceAvailable)
        pthread_mutex_unlock(mutex)
        closedSignal?.signal()
        waiter?.resume(returning: nil)
    }

    /// The next block, nil at the end; throws the reader's error after the queued blocks.
    func next() async throws -> SampleBlock? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<SampleBlock?, any Error>) in
                pthread_mutex_lock(mutex)
                if head < queue.count {
                    let block = queue[head]
                    head += 1
                    compact()
                    pthread_cond_signal(spaceAvailable)
                    pthread_mutex_unlock(mutex)
                    continuation.resume(returning: block)
                } else if closed {
                    pthread_mutex_unlock(mutex)
                    continuation.resume(returning: nil)
                } else if let ending {
                    pthread_mutex_unlock(mutex)
                    continuation.resume(with: ending.map { nil })
                } else {
                    waiter = continuation
                    pthread_mutex_unlock(mutex)
                }
            }
        } onCancel: {
            close()
        }
    }

    /// Drops consumed slots once they dominate the array; called with the mutex held.
    private func compact() {
        guard head > 32, head * 2 > queue.count else { return }
        queue.removeFirst(head)
        head = 0
    }

    /// The consumer's view: an `AsyncThrowingStream` that closes the channel when it is released or cancelled.
    func makeStream() -> AsyncThrowingStream<SampleBlock, any Error> {
        let token = ConsumerToken(self)
        return AsyncThrowingStream(unfolding: { try await token.channel.next() })
    }

    /// Lives exactly as long as the consumer's stream; its release tells the reader to stop.
    private final class ConsumerToken: Sendable {
        let channel: BlockChannel
        init(_ channel: BlockChannel) { self.channel = channel }
        deinit { channel.close() }
    }
}
