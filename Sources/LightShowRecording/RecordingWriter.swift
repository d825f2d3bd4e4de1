import LightShowCore
import LightShowSystem

/// A recording's writer thread: the audio into `audio.wav`, the engine's frames onto the timeline, and the frames
/// due on to the encoders, one message at a time.
///
/// The recording's clock is its audio. A file (or the offline demo) releases frames as the audio passes them and
/// as the engine finishes them, waiting for the encoders here. A live input can go quiet (a suspended sound
/// server, a paused player's fifo deliver nothing), so the writer also keeps time for it, every frame interval:
/// whenever the audio falls behind the wall clock by more than a capture's latency, it writes silence up to there
/// and releases the frames due, so the recording shows a pause as it happens; audio that comes faster than real
/// time (a pipe) simply moves the clock faster.
struct RecordingWriter: Sendable {
    /// What the engine hands the recording, in the order it does.
    enum Message: Sendable {
        case audio(SampleBlock)
        case frame(ShowFrame)
        /// Offline: every frame up to the audio so far is made.
        case framesDone
    }

    private let output: RecordingOutput
    private let sampleRate: Int
    private let frameInterval: UInt64
    private let live: Bool
    private var timeline: FrameTimeline
    /// Frames in `audio.wav` so far: the input's, plus silence written for gaps.
    private var audioFrames: Int64 = 0
    /// Seconds of silence written for gaps: the input's own times are this much behind the recording's.
    private var insertedSeconds = 0.0
    /// Live: how far the audio may lag the wall clock (capture latency and jitter) before silence stands in for
    /// it, and how far behind the audio the writer releases frames (a block's frames are made just after it).
    private static let captureLatency = 0.3
    private static let releaseLag = 0.15

    init(output: RecordingOutput, framesPerSecond: Double, sampleRate: Int, live: Bool) {
        self.output = output
        self.sampleRate = sampleRate
        self.live = live
        frameInterval = UInt64(max(1, Int64(saturating: (1e9 / max(1, framesPerSecond)).rounded())))
        timeline = FrameTimeline(framesPerSecond: framesPerSecond)
    }

    /// Takes messages until the queue ends, then releases the rest of the frames and pads the audio to them.
    /// Returns the recording's length in seconds, or the first error (also told to `failed` when it happens, so
    /// the engine hears of it at its next call).
    mutating func run(_ inbox: BoundedQueue<Message>, failed: (any Error) -> Void) -> Result<Double, any Error> {
        let wallStart = MonotonicClock.now()
        var nextTick: UInt64? = live ? wallStart &+ frameInterval : nil
        do {
            while true {
                let popped = inbox.pop(until: nextTick)
                if case .some(nil) = popped { break }
                if case .some(let message?) = popped { try handle(message) }
                if let tick = nextTick, MonotonicClock.now() >= tick {
                    try keepTime(since: wallStart)
                    nextTick = max(tick &+ frameInterval, MonotonicClock.now())
                }
            }
            return .success(try finish())
        } catch {
            failed(error)
            return .failure(error)
        }
    }

    private mutating func handle(_ message: Message) throws {
        switch message {
        case .audio(let block):
            let before = seconds
            try output.audio?.write(block)
            audioFrames += Int64(block.frameCount)
            // Offline, every frame before this block's audio has been made by now. Live, time releases them.
            if !live { try submit(timeline.release(before: before)) }
        case .frame(var frame):
            frame.time += insertedSeconds
            timeline.add(frame)
        case .framesDone:
            try submit(timeline.release(before: seconds))
        }
    }

    /// Live, each frame interval: silence for a quiet input, then the frames due.
    private mutating func keepTime(since wallStart: UInt64) throws {
        let behind = Double(MonotonicClock.now() &- wallStart) / 1e9 - Self.captureLatency
        let before = seconds
        try pad(to: behind)
        insertedSeconds += seconds - before
        try submit(timeline.release(before: seconds - Self.releaseLag))
    }

    /// The input is over: the rest of the frames, through the fade-out's dark frame, and the audio padded to them.
    private mutating func finish() throws -> Double {
        try submit(timeline.release(before: seconds) + timeline.releaseThroughLatest())
        let end = timeline.time(of: timeline.nextIndex)
        try pad(to: end)
        return end
    }

    private var seconds: Double { Double(audioFrames) / Double(sampleRate) }

    /// Writes silence until the audio lasts `seconds`.
    private mutating func pad(to seconds: Double) throws {
        let missing = Int64(saturating: (seconds * Double(sampleRate)).rounded()) - audioFrames
        guard missing > 0 else { return }
        try output.audio?.writeSilence(frames: missing)
        audioFrames += missing
    }

    private func submit(_ frames: [ShowFrame]) throws {
        for frame in frames { try output.frames.submitWaiting(frame) }
    }
}
