import LightShowSystem
import LightShowCore

/// Where a source's reader thread hands its blocks: the consumer's own closure, called on the reader thread
/// (`AudioSource.forEachBlock`). Every source writes its loop once against this.
public struct BlockSink: Sendable {
    /// Hands over a block; false when the consumer wants no more.
    let deliver: @Sendable (SampleBlock) -> Bool
    /// Checked while no audio comes, so a reader notices a consumer that left.
    let isCancelled: @Sendable () -> Bool
    /// Readable once the consumer has left, so a reader asleep in `poll` wakes for it at once (nil when the
    /// system refused the pipe: such a reader notices at its next wake-up).
    let stopped: WakeSignal?
    /// Ends the stream: nil at the end of input, or the error that ended it.
    let finish: @Sendable ((any Error)?) -> Void

    init(deliver: @escaping @Sendable (SampleBlock) -> Bool, isCancelled: @escaping @Sendable () -> Bool,
         stopped: WakeSignal? = nil, finish: @escaping @Sendable ((any Error)?) -> Void) {
        self.deliver = deliver
        self.isCancelled = isCancelled
        self.stopped = stopped
        self.finish = finish
    }

    /// `forEachBlock` for a source: `start` launches the reader, which calls `body` directly;
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
