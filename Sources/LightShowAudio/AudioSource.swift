public import LightShowCore

/// A producer of audio. Opening validates the input (and fails with a `UserFacingError`); `forEachBlock` then
/// reads on the source's own thread, never on the cooperative pool, and hands over blocks in order. It returns at
/// end of input, or throws a `UserFacingError` when the input fails for good. Cancelling the consuming task stops
/// the reader and releases the input.
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

    /// Starts the reader thread, which hands each block to `sink` in order and finishes it at the end of input or
    /// on failure. Called once, by `forEachBlock`; a second call fails.
    func startReading(into sink: BlockSink) throws(LightShowError)
}

extension AudioSource {
    public var statistics: CaptureStatistics { CaptureStatistics() }
    public var statisticsChanges: Announcer? { nil }
    public var pace: ReaderPace? { nil }

    /// Starts reading and calls `body` with each block, in order, on the source's own reader thread; returns when
    /// the input ends or `body` returns false, and throws when the input fails for good. Call once. Blocks are
    /// handed over without waking a thread of the cooperative pool for each one, and a consumer that waits (a
    /// recorder's full encoder queue) holds the reader's thread, never one of the pool.
    public func forEachBlock(_ body: @escaping @Sendable (SampleBlock) -> Bool) async throws {
        let pace = pace
        // A stop request ends a reader's nap at once: napping is for a sleeping show, never a delay to stopping.
        try await withTaskCancellationHandler {
            try await BlockSink.run(body) { sink throws(LightShowError) in try startReading(into: sink) }
        } onCancel: {
            pace?.interrupt()
        }
    }
}
