import LightShowCore
import LightShowSystem

/// The PNG recorder as a sink of the show engine: keeps the audio in `audio.wav`, and turns the engine's frames
/// into frames at exactly the recording's rate (`FrameTimeline`), so they carry the show's real state, title and
/// fade. When the input is over, the engine's fade-out tail is released up to its dark frame and the audio is
/// padded with silence to the same length, so video and audio stay together.
///
/// The sink only queues what the engine hands it; one writer thread (`RecordingWriter`) owns the timeline and the
/// files and does every write, in the order the engine called, with no lock held. The queue is bounded: a file
/// read faster than the encoders go waits for them there.
final class FrameRecorder: ShowSink, Sendable {
    private let inbox: BoundedQueue<RecordingWriter.Message>
    private let writer: DedicatedThread.Joinable
    /// The writer's first error, for the engine's next call; and its outcome, once it has ended.
    private let failure: Locked<(any Error)?>
    private let outcome: Locked<Result<Double, any Error>?>
    private let live: Bool

    init(output: RecordingOutput, framesPerSecond: Double, sampleRate: Int, live: Bool) throws {
        self.live = live
        // Live, the reader must not wait for the encoders: room for seconds of audio and frames.
        let inbox = BoundedQueue<RecordingWriter.Message>(capacity: live ? 512 : 64)
        let failure = Locked<(any Error)?>(nil)
        let outcome = Locked<Result<Double, any Error>?>(nil)
        let recording = RecordingWriter(
            output: output, framesPerSecond: framesPerSecond, sampleRate: sampleRate, live: live
        )
        writer = try DedicatedThread.startJoinable(name: "ls-record") {
            var recording = recording
            let result = recording.run(inbox) { error in
                failure.withLock { $0 = $0 ?? error }
                // Nothing more is written: whoever waits for room learns at once.
                inbox.close(discardingPending: true)
            }
            outcome.withLock { $0 = result }
        }
        self.inbox = inbox
        self.failure = failure
        self.outcome = outcome
    }

    deinit {
        inbox.close(discardingPending: true)
    }

    var takesAudio: Bool { true }

    func audio(_ block: SampleBlock) throws {
        try send(.audio(block))
    }

    func show(_ frame: ShowFrame) throws {
        try send(.frame(frame))
    }

    /// The engine is done with a block or an event: offline, every frame up to the audio so far is made.
    func framesDone() {
        guard !live else { return }
        inbox.push(.framesDone)
    }

    /// The input is over and the engine emitted its last frame: releases the rest, through the dark frame of the
    /// fade-out, and pads the audio to the frames' length. Returns the recording's length in seconds.
    func finish() throws -> Double {
        inbox.finish()
        writer.join()
        guard let outcome = outcome.current else { throw LightShowError("the recording's writer ended early", exitStatus: .ioError) }
        return try outcome.get()
    }

    private func send(_ message: RecordingWriter.Message) throws {
        if let failure = failure.current { throw failure }
        guard inbox.push(message) else {
            throw failure.current ?? LightShowError("the recording was stopped", exitStatus: .ioError)
        }
    }
}
