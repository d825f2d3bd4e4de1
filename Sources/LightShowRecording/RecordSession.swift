import LightShowCore
import LightShowAudio
import LightShowEngine
import LightShowNowPlaying
import LightShowRender
import LightShowSystem

/// `lightshow record`: the show engine with a `FrameRecorder` as its sink → PNG frames at exactly `fps`,
/// `frames.jsonl` (with each frame's real state) and `audio.wav`. A file renders offline as fast as the encoders
/// go; a live input records until `duration` or cancellation (SIGINT). Either way the recording ends as `watch`
/// shows an ending, stopped with the lights fading out, and every file is complete when `run` returns.
public struct RecordSession: Sendable {
    /// The recording; its configuration's `[input]` is what is recorded.
    public var plan: RecordingPlan

    public struct Summary: Sendable, Equatable {
        public var frames: Int
        /// Seconds the frames cover (the audio, then the fade-out).
        public var seconds: Double
        public var directory: String
    }

    public init(_ plan: RecordingPlan) {
        self.plan = plan
    }

    /// Records, and returns what was written. Throws a `UserFacingError` (74 for a write error) after
    /// leaving the directory consistent: frames 0…n−1 on disk, all listed, no temporary files.
    public func run() async throws -> Summary {
        let configuration = plan.configuration
        let input = configuration.input.source
        // Files, and the demo when it has a length, render offline; everything else is recorded as it arrives.
        let offline = !input.isLive || (input == .demo && plan.duration != nil)
        // Opening blocks (a sound server is waited for, files are made): on a thread of its own, never the pool's.
        let (source, player, output, recorder) = try await DedicatedThread.complete(name: "ls-open") { [plan] in
            let source = try AudioSources.open(
                input, pcmFormat: configuration.input.pcmFormat, pacing: offline ? .offline : .natural, duration: plan.duration
            )
            let player = try NowPlayingSources.make(configuration)
            let output = try plan.makeOutput(
                style: Scene.Style(configuration), audioFormat: (source.sampleRate, source.channels)
            )
            let recorder = try FrameRecorder(
                output: output, framesPerSecond: plan.framesPerSecond, sampleRate: source.sampleRate, live: source.isLive
            )
            return (source, player, output, recorder)
        }
        let engine = ShowEngine(
            source: source, configuration: configuration,
            options: .init(framesPerSecond: plan.framesPerSecond, audioLimitSeconds: plan.duration, fadeOutTail: true),
            player: player
        )
        var failure: (any Error)?
        do {
            try await engine.run([recorder])
        } catch is CancellationError {
            // Ctrl-C or SIGTERM on a live input: the recording ends here, complete.
        } catch {
            failure = error
        }
        // The writer's threads are joined and the files synced on a thread of their own, cancelled or not.
        return try await DedicatedThread.complete(name: "ls-record-end") { [failure] in
            var failure = failure
            var seconds = 0.0
            do {
                seconds = try recorder.finish()
            } catch {
                if failure == nil { failure = error }
            }
            return try output.finish(after: failure, seconds: seconds)
        }
    }
}
