import LightShowAudio
import LightShowCore
import LightShowRender

/// The PNG recorder as a sink of the show engine: keeps every block of audio in `audio.wav`, and turns the
/// engine's frames into frames at exactly the recording's rate (`FrameTimeline`), so they carry the show's real
/// state, title and fade. When the input is over, the engine's fade-out tail is released up to its dark frame
/// and the audio is padded with silence to the same length, so video and audio stay together.
///
/// Called by the engine with its state locked, never twice at once, on the input's reader thread: waiting for
/// the encoders there holds that thread only, which is what makes the unchecked Sendable safe.
final class FrameRecorder: ShowSink, @unchecked Sendable {
    private let output: RecordingOutput
    private var timeline: FrameTimeline
    private let sampleRate: Int
    private var audioFrames: Int64 = 0
    /// A write error met in `framesDone`, which can't throw.
    private var failure: (any Error)?

    init(output: RecordingOutput, framesPerSecond: Double, sampleRate: Int) {
        self.output = output
        timeline = FrameTimeline(framesPerSecond: framesPerSecond)
        self.sampleRate = sampleRate
    }

    /// Seconds of audio in `audio.wav`.
    var audioSeconds: Double { Double(audioFrames) / Double(sampleRate) }

    func audio(_ block: SampleBlock) throws {
        if let failure { throw failure }
        // Every frame before this block's audio has been made by now.
        try submit(timeline.release(before: audioSeconds))
        try output.audio?.write(block)
        audioFrames += Int64(block.frameCount)
    }

    func show(_ frame: ShowFrame) throws {
        timeline.add(frame)
    }

    /// The engine is done with a block or an event: every frame up to the audio so far is made.
    func framesDone() {
        do {
            try submit(timeline.release(before: audioSeconds))
        } catch {
            // A failed recording stops at the next block, which the engine can be told of; `finish` reports it.
            failure = failure ?? error
        }
    }

    /// The input is over and the engine emitted its last frame: releases the rest, through the dark frame of the
    /// fade-out, and pads the audio to the frames' length. Returns the recording's length in seconds.
    func finish() throws -> Double {
        if let failure { throw failure }
        try submit(timeline.release(before: audioSeconds))
        try submit(timeline.releaseThroughLatest())
        let seconds = timeline.time(of: timeline.nextIndex)
        let missing = Int64(saturating: (seconds * Double(sampleRate)).rounded()) - audioFrames
        if missing > 0 {
            try output.audio?.writeSilence(frames: missing)
            audioFrames += missing
        }
        return seconds
    }

    private func submit(_ frames: [ShowFrame]) throws {
        for frame in frames { try output.frames.submitWaiting(frame) }
    }
}
