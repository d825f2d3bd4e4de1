public import LightShowCore

/// What a recording makes, whatever it records: where, how large, how fast, how long, and the configuration it
/// is drawn with (colours, playback, the input and the now-playing source for a recording of an input).
public struct RecordingPlan: Sendable {
    /// The output directory: new or empty, unless `force`.
    public var directory: String
    public var size: FrameSize
    public var framesPerSecond: Double
    /// Seconds to record; nil = the whole file, or until cancelled.
    public var duration: Double?
    public var force: Bool
    public var configuration: Configuration

    public init(
        directory: String, size: FrameSize, framesPerSecond: Double, duration: Double?, force: Bool,
        configuration: Configuration
    ) {
        self.directory = directory
        self.size = size
        self.framesPerSecond = framesPerSecond
        self.duration = duration
        self.force = force
        self.configuration = configuration
    }

    /// The output files, drawn with `style`; with `audio.wav` when `audioFormat` is given.
    func makeOutput(style: Scene.Style, audioFormat: (sampleRate: Int, channels: Int)?) throws -> RecordingOutput {
        try RecordingOutput(path: directory, force: force, size: size, style: style, audioFormat: audioFormat)
    }
}
