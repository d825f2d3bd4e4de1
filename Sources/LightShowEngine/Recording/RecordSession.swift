public import LightShowCore
import LightShowAnalysis
import LightShowAudio
import LightShowRender

#if canImport(Glibc)
import Glibc
#endif

/// `lightshow record`: audio → levels → frames at exactly `fps` → PNGs, `frames.jsonl` and `audio.wav`.
/// A file renders offline as fast as the encoders go; a live input records until `duration` or cancellation
/// (SIGINT), and either way every file is complete when `run` returns.
public struct RecordSession: Sendable {
    public var input: InputSpec
    public var pcmFormat: PCMFormat
    public var directory: String
    public var size: FrameSize
    public var framesPerSecond: Double
    /// Seconds of audio to record; nil = the whole file, or until cancelled for a live input.
    public var duration: Double?
    public var force: Bool
    public var configuration: Configuration

    public struct Summary: Sendable, Equatable {
        public var frames: Int
        public var audioSeconds: Double
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
        let output = try OutputDirectory(path: directory, force: force)
        let writer = try FrameSequenceWriter(
            directory: output, width: size.width, height: size.height, style: Scene.Style(configuration)
        )
        let audio: WAVFileWriter
        do {
            audio = try WAVFileWriter(path: output.file(OutputDirectory.audioName), sampleRate: source.sampleRate, channels: source.channels)
        } catch {
            _ = try? writer.finish()
            throw error
        }
        let analyzer = LevelAnalyzer(
            settings: configuration.analysis, bands: configuration.bands,
            sampleRate: source.sampleRate, framesPerSecond: framesPerSecond
        )
        var timeline = FrameTimeline(framesPerSecond: framesPerSecond)
        let limit = duration.map { Int64(($0 * Double(source.sampleRate)).rounded()) }
        let title = input.defaultTitle
        var consumed: Int64 = 0
        var failure: (any Error)?

        do {
            for try await block in source.blocks() {
                if Task.isCancelled { break }
                var block = block
                if let limit, consumed + Int64(block.frameCount) > limit {
                    let keep = Int(limit - consumed)
                    block = SampleBlock(
                        samples: Array(block.samples.prefix(keep * block.channels)), channels: block.channels,
                        sampleRate: block.sampleRate, startFrame: block.startFrame, captureTimeNanoseconds: block.captureTimeNanoseconds
                    )
                }
                try audio.write(block)
                consumed += Int64(block.frameCount)
                timeline.add(analyzer.process(block))
                let audioTime = Double(consumed) / Double(source.sampleRate)
                // The playback-state machine will drive this later; while input flows the show is playing.
                for frame in timeline.release(upTo: audioTime, state: .playing, title: title) {
                    try await writer.submit(frame)
                }
                if let limit, consumed >= limit { break }
            }
        } catch {
            failure = error
        }

        // Always settle both outputs; the frames' account of a write error is the most complete one.
        var frames = 0
        do {
            frames = try writer.finish()
        } catch {
            failure = error
        }
        do {
            try audio.finish()
        } catch {
            if failure == nil { failure = error }
        }
        if let failure = failure as? LightShowError {
            // An audio or input failure: say what the directory still holds, as a frame failure does.
            throw LightShowError(
                "\(failure.message); recording stopped: \(frames) complete frames are in \(output.path), all listed in \(OutputDirectory.framesLogName)",
                exitStatus: failure.exitStatus
            )
        }
        if let failure { throw failure }
        return Summary(frames: frames, audioSeconds: Double(consumed) / Double(source.sampleRate), directory: output.path)
    }
}
