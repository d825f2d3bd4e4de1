import LightShowAudio
import LightShowCore
import LightShowSystem

extension AudioSource {
    /// The blocks as a stream, for tests that look at them from a task while the source runs. The reader waits
    /// while `capacity` blocks are unread, so memory stays bounded; releasing the stream or cancelling its read
    /// stops the reader, as cancelling `forEachBlock` does.
    public func blocks(capacity: Int = 32) -> AsyncThrowingStream<SampleBlock, any Error> {
        let consumer = BlockStreamConsumer(capacity: capacity)
        let queue = consumer.queue
        consumer.reading = Task {
            do {
                try await forEachBlock { queue.push($0) }
                queue.finish()
            } catch {
                queue.finish(throwing: error)
            }
        }
        return AsyncThrowingStream(unfolding: { try await consumer.next() })
    }
}

/// The stream's end of the queue: lives exactly as long as the stream, and its release or a cancelled read stops
/// the reading task.
private final class BlockStreamConsumer: @unchecked Sendable {
    let queue: BoundedQueue<SampleBlock>
    /// Set once, before the stream exists.
    var reading: Task<Void, Never>?

    init(capacity: Int) {
        queue = BoundedQueue(capacity: capacity)
    }

    deinit { stop() }

    func next() async throws -> SampleBlock? {
        try await withTaskCancellationHandler { try await queue.next() } onCancel: { stop() }
    }

    func stop() {
        queue.close()
        reading?.cancel()
    }
}
