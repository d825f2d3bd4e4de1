import LightShowSystem
import LightShowCore

/// Where a reader thread hands its blocks: a bounded queue (for `blocks()`), or the consumer's own closure called
/// on the reader thread (for `forEachBlock`). Live sources write their loop once against this.
struct BlockSink: Sendable {
    /// Hands over a block; false when the consumer wants no more.
    let deliver: @Sendable (SampleBlock) -> Bool
    /// Checked while no audio comes, so a reader notices a consumer that left.
    let isCancelled: @Sendable () -> Bool
    /// Readable once the consumer has left, so a reader asleep in `poll` wakes for it at once (nil when the
    /// system refused the pipe: such a reader notices at its next wake-up).
    let stopped: WakeSignal?
    /// Ends the stream: nil at the end of input, or the error that ended it.
    let finish: @Sendable ((any Error)?) -> Void

    /// A sink feeding `consumer`'s queue. The reader waits while the queue is full, so memory stays bounded; a live
    /// capture that waits too long overruns its device, which recovers and resumes with fresh audio rather than
    /// queueing stale audio.
    private init(_ consumer: Consumer) {
        let queue = consumer.queue
        deliver = { queue.push($0) }
        isCancelled = { queue.isClosed }
        stopped = consumer.closed
        finish = { queue.finish(throwing: $0) }
    }

    init(deliver: @escaping @Sendable (SampleBlock) -> Bool, isCancelled: @escaping @Sendable () -> Bool,
         stopped: WakeSignal? = nil, finish: @escaping @Sendable ((any Error)?) -> Void) {
        self.deliver = deliver
        self.isCancelled = isCancelled
        self.stopped = stopped
        self.finish = finish
    }

    /// `blocks()` for a live source: a queue and its stream, with `start` launching the reader on the sink.
    static func stream(capacity: Int, start: (BlockSink) throws -> Void) -> AsyncThrowingStream<SampleBlock, any Error> {
        let consumer = Consumer(capacity: capacity)
        do {
            try start(BlockSink(consumer))
        } catch {
            consumer.queue.finish(throwing: error)
        }
        return AsyncThrowingStream(unfolding: { try await consumer.next() })
    }

    /// The stream's end of the queue: lives exactly as long as the stream, and its release or a cancelled read
    /// tells the reader to stop.
    private final class Consumer: Sendable {
        let queue: BoundedQueue<SampleBlock>
        /// Readable once the consumer has gone, for a reader that sleeps in `poll`.
        let closed = try? WakeSignal()

        init(capacity: Int) {
            queue = BoundedQueue(capacity: capacity)
        }

        deinit { stop() }

        func next() async throws -> SampleBlock? {
            try await withTaskCancellationHandler { try await queue.next() } onCancel: { stop() }
        }

        func stop() {
            queue.close()
            closed?.signal()
        }
    }

    /// `forEachBlock` for a live source: `start` launches the reader, which calls `body` directly;
    /// returns when the reader finishes, and cancelling the task stops the reader.
    static func run(
        _ body: @escaping @Sendable (SampleBlock) -> Bool, start: (BlockSink) throws -> Void
    ) async throws {
        let cancelled = Locked(false)
        let stopped = try? WakeSignal()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let sink = BlockSink(
                    deliver: { cancelled.current ? false : body($0) },
                    isCancelled: { cancelled.current },
                    stopped: stopped,
                    finish: { error in
                        if let error { continuation.resume(throwing: error) } else { continuation.resume() }
                    })
                do {
                    try start(sink)
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        } onCancel: {
            cancelled.withLock { $0 = true }
            stopped?.signal()
        }
    }
}
