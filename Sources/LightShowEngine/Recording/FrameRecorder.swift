import LightShowAudio
import LightShowCore
import LightShowRender
import LightShowSystem
import Synchronization

/// The PNG recorder as a sink of the show engine: keeps the audio in `audio.wav`, and turns the engine's frames
/// into frames at exactly the recording's rate (`FrameTimeline`), so they carry the show's real state, title and
/// fade. When the input is over, the engine's fade-out tail is released up to its dark frame and the audio is
/// padded with silence to the same length, so video and audio stay together.
///
/// The recording's clock is its audio. A file (or the offline demo) releases frames as the audio passes them and as
/// the engine finishes them, waiting for the encoders there. A live input can go quiet (a suspended sound server, a
/// paused player's fifo deliver nothing), so a ticker thread keeps time for it: whenever the audio falls behind
/// the wall clock by more than a capture's latency, it writes silence up to there and releases the frames due,
/// so the recording shows a pause as it happens; audio that comes faster than real time (a pipe) simply moves
/// the clock faster.
final class FrameRecorder: ShowSink, Sendable {
    private struct State {
        var timeline: FrameTimeline
        /// Frames in `audio.wav` so far: the input's, plus silence written for gaps.
        var audioFrames: Int64 = 0
        /// Seconds of silence written for gaps: the input's own times are this much behind the recording's.
        var insertedSeconds = 0.0
        /// A write error met where nothing could throw (the ticker, `framesDone`); reported at the next chance.
        var failure: (any Error)?
    }

    private let output: RecordingOutput
    private let sampleRate: Int
    private let state: Mutex<State>
    /// Live only: when the recording started (monotonic ns), and the ticker's stop signal.
    private let wallStart: UInt64?
    private let stopTicker: WakeSignal?
    /// Held from taking frames off the timeline to handing them to the encoders, whichever thread releases them
    /// (the reader, the engine's listener, the ticker, `finish`), so they reach the queue in index order; true once
    /// `finish` took over.
    private let releasing = Mutex(false)
    /// Live: how far the audio may lag the wall clock (capture latency and jitter) before silence stands in for
    /// it, and how far behind the audio the ticker releases frames (a block's frames are made just after it).
    private static let captureLatency = 0.3
    private static let releaseLag = 0.15

    init(output: RecordingOutput, framesPerSecond: Double, sampleRate: Int, live: Bool) throws {
        self.output = output
        self.sampleRate = sampleRate
        state = Mutex(State(timeline: FrameTimeline(framesPerSecond: framesPerSecond)))
        guard live else {
            wallStart = nil
            stopTicker = nil
            return
        }
        wallStart = MonotonicClock.now()
        let stop = try WakeSignal()
        stopTicker = stop
        let interval = Duration.seconds(1 / framesPerSecond)
        try DedicatedThread.start(name: "ls-record-ticker") { [self] in
            while !stop.wait(for: interval) { tick() }
        }
    }

    func audio(_ block: SampleBlock) throws {
        // Live, the ticker releases the frames: the reader keeps the audio and never waits for the encoders.
        guard wallStart == nil else { return try state.withLock { state throws in try keep(block, in: &state) } }
        try release { state throws in
            let before = seconds(state)
            try keep(block, in: &state)
            // Every frame before this block's audio has been made by now.
            return state.timeline.release(before: before)
        }
    }

    func show(_ frame: ShowFrame) throws {
        state.withLock { state in
            var frame = frame
            frame.time += state.insertedSeconds
            state.timeline.add(frame)
        }
    }

    /// The engine is done with a block or an event: offline, every frame up to the audio so far is made.
    func framesDone() {
        guard wallStart == nil else { return }
        do {
            try release { state in state.timeline.release(before: seconds(state)) }
        } catch {
            state.withLock { state in state.failure = state.failure ?? error }
        }
    }

    /// The input is over and the engine emitted its last frame: releases the rest, through the dark frame of the
    /// fade-out, and pads the audio to the frames' length. Returns the recording's length in seconds.
    func finish() throws -> Double {
        stopTicker?.signal()
        try releasing.withLock { finished throws in
            finished = true
            let (due, failure) = state.withLock { state in
                (state.timeline.release(before: seconds(state)) + state.timeline.releaseThroughLatest(), state.failure)
            }
            if let failure { throw failure }
            for frame in due { try output.frames.submitWaiting(frame) }
        }
        return try state.withLock { state throws -> Double in
            let seconds = state.timeline.time(of: state.timeline.nextIndex)
            try pad(&state, to: seconds)
            return seconds
        }
    }

    /// Live, each 1/fps: silence for a quiet input, then the frames due. Takes `releasing` first, as `finish`
    /// does, so the frames it takes from the timeline go out before anything `finish` releases.
    private func tick() {
        releasing.withLock { finished in
            guard !finished else { return }
            let due = state.withLock { state -> [ShowFrame] in
                guard let wallStart, state.failure == nil else { return [] }
                let behind = Double(MonotonicClock.now() &- wallStart) / 1e9 - Self.captureLatency
                do {
                    let before = seconds(state)
                    try pad(&state, to: behind)
                    state.insertedSeconds += seconds(state) - before
                } catch {
                    state.failure = error
                }
                return state.timeline.release(before: seconds(state) - Self.releaseLag)
            }
            do {
                for frame in due { try output.frames.submitWaiting(frame) }
            } catch {
                state.withLock { state in state.failure = state.failure ?? error }
            }
        }
    }

    private func seconds(_ state: State) -> Double {
        Double(state.audioFrames) / Double(sampleRate)
    }

    /// Writes silence until the audio lasts `seconds`.
    private func pad(_ state: inout State, to seconds: Double) throws {
        let missing = Int64(saturating: (seconds * Double(sampleRate)).rounded()) - state.audioFrames
        guard missing > 0 else { return }
        try output.audio?.writeSilence(frames: missing)
        state.audioFrames += missing
    }

    /// Appends a block to the audio, unless the recording already failed.
    private func keep(_ block: SampleBlock, in state: inout State) throws {
        if let failure = state.failure { throw failure }
        try output.audio?.write(block)
        state.audioFrames += Int64(block.frameCount)
    }

    /// Offline: takes the frames due off the timeline and hands them to the encoders under one lock, so frames the
    /// reader and the engine's listener release at once still reach the queue in index order.
    private func release(_ take: (inout State) throws -> [ShowFrame]) throws {
        try releasing.withLock { finished throws in
            let due = try state.withLock { state throws in try take(&state) }
            guard !finished else { return }
            for frame in due { try output.frames.submitWaiting(frame) }
        }
    }
}
