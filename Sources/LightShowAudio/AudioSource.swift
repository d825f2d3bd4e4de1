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

    /// Starts reading. Call once.
    func blocks() -> AsyncThrowingStream<SampleBlock, any Error>
}

extension AudioSource {
    public var statistics: CaptureStatistics { CaptureStatistics() }
}
