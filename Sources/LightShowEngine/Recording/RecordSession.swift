public import LightShowCore
import LightShowAudio
import LightShowNowPlaying
import LightShowRender

/// `lightshow record`: the show engine with a `FrameRecorder` as its sink → PNG frames at exactly `fps`,
/// `frames.jsonl` (with each frame's real state) and `audio.wav`. A file renders offline as fast as the encoders
/// go; a live input records until `duration` or cancellation (SIGINT). Either way the recording ends as `watch`
/// shows an ending, stopped with the lights fading out, and every file is complete when `run` returns.
public struct RecordSession: Sendable {
    public var input: InputSpec
    public var pcmFormat: PCMFormat
    public var directory: String
    public var size: FrameSize
    public var framesPerSecond: Double
    /// Seconds of audio to record; nil = the whole file, or until cancelled for a live input.
    public var duration: Double?
    public var force: Bool
    /// Bands, colours, playback and the now-playing source (`[mpd]`), as every command reads them.
    public var configuration: Configuration

    public struct Summary: Sendable, Equatable {
        public var frames: Int
        /// Seconds the frames cover (the audio, then the fade-out).
        public var seconds: Double
        public var directory: String
    }

    public init(
        input: InputSpec, pcmFormat: PCMFormat, directory: String, size: FrameSize, framesPerSecond: Double,
        duration: Double?, force: Bool, configuration: Configuration
    ) {
        self.input = input
        self.pcmFormat = pcmFormat
        self.directory = directory
        self.size = size
        self.framesPerSecond = framesPerSecond
        self.duration = duration
        self.force = force
        self.configuration = configuration
    }

    /// Records, and returns what was written. Throws a `UserFacingError` (74 for a write error) after
    /// leaving the directory consistent: frames 0…n−1 on disk, all listed, no temporary files.
    public func run() async throws -> Summary {
        // Files, and the demo when it has a length, render offline; everything else is recorded as it arrives.
        let offline = !input.isLive || (input == .demo && duration != nil)
        let source = try AudioSources.open(
            input, pcmFormat: pcmFormat, pacing: offline ? .offline : .natural, duration: duration
        )
        let player = try NowPlayingSources.make(configuration)
        let output = try RecordingOutput(
            path: directory, force: force, size: size, style: Scene.Style(configuration),
            audioFormat: (source.sampleRate, source.channels)
        )
        let recorder = try FrameRecorder(
            output: output, framesPerSecond: framesPerSecond, sampleRate: source.sampleRate, live: source.isLive
        )
        let engine = ShowEngine(
            source: source, configuration: configuration,
            options: .init(framesPerSecond: framesPerSecond, audioLimitSeconds: duration, fadeOutTail: true),
            player: player
        )
        var failure: (any Error)?
        var seconds = 0.0
        do {
            try await engine.run([recorder])
        } catch is CancellationError {
            // Ctrl-C or SIGTERM on a live input: the recording ends here, complete.
        } catch {
            failure = error
        }
        do {
            seconds = try recorder.finish()
        } catch {
            if failure == nil { failure = error }
        }
        return try output.finish(after: failure, seconds: seconds)
    }
}
