public import LightShowCore

/// A producer of audio. Opening validates the input (and fails with a `UserFacingError`);
/// `blocks()` then reads on a dedicated thread, never on the cooperative pool, and yields blocks in order.
/// The stream finishes at end of input, or throws a `UserFacingError` when the input fails for good.
/// Cancelling the consuming task, or releasing the stream, stops the reader and releases the input.
public protocol AudioSource: AnyObject, Sendable {
    /// The input as the user named it, for messages and titles.
    var spec: InputSpec { get }
    /// Sample rate and channel count of the blocks this source yields.
    var sampleRate: Int { get }
    var channels: Int { get }
    /// True when blocks arrive in real time (capture, pipes, the demo); false for files read as fast as possible.
    var isLive: Bool { get }
    /// Counters and the time of the last real audio, for status and the daemon's watchdog.
    var statistics: CaptureStatistics { get }
    /// Announces, on the reader thread, when what status shows of `statistics` changes; nil when it never does.
    var statisticsChanges: Announcer? { get }
    /// Where the consumer says that it sleeps, for a reader that can then wake less often; nil when the source's
    /// reader doesn't pace itself.
    var pace: ReaderPace? { get }

    /// Starts reading. Call once.
    func blocks() -> AsyncThrowingStream<SampleBlock, any Error>

    /// Starts reading and calls `body` with each block, in order, on the source's own reader thread; returns when
    /// the input ends or `body` returns false, and throws when the input fails for good. Call once, instead of
    /// `blocks()`. A live source that implements it natively hands blocks over without waking a thread of the
    /// cooperative pool for each one, which halves the wake-ups of a consumer (like `analyze`) that can run there.
    func forEachBlock(_ body: @escaping @Sendable (SampleBlock) -> Bool) async throws
}

extension AudioSource {
    public var statistics: CaptureStatistics { CaptureStatistics() }
    public var statisticsChanges: Announcer? { nil }
    public var pace: ReaderPace? { nil }

    public func forEachBlock(_ body: @escaping @Sendable (SampleBlock) -> Bool) async throws {
        for try await block in blocks() {
            guard body(block) else { return }
        }
    }
}
