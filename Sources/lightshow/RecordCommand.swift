import ArgumentParser
import LightShowCore
import LightShowRecording

#if canImport(Glibc)
import Glibc
#endif

struct RecordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record the light show as numbered PNG frames, with frames.jsonl and audio.wav beside them.",
        discussion: """
        Writes DIR/frame_000000.png, frame_000001.png, … at exactly --fps, DIR/frames.jsonl (index, time, levels and \
        state of every frame) and DIR/audio.wav (the audio that was rendered). A file renders offline, as fast as \
        the machine allows, and gives byte-identical frames on every run. A live input (alsa:, fifo:, stdin, demo) \
        records for --duration, or until Ctrl-C, and still leaves complete files.

        Make a video:
          ffmpeg -framerate 30 -i DIR/frame_%06d.png -i DIR/audio.wav -c:v libx264 -pix_fmt yuv420p -c:a aac -shortest out.mp4

        Examples:
          lightshow record --input song.flac --out frames/
          lightshow record --input demo --out demo/ --duration 20s --size 1920x1080 --fps 60
          lightshow record --connect --out live/ --duration 30s     (what a running daemon shows; no audio.wav)
        """
    )

    @OptionGroup var global: GlobalOptions

    @OptionGroup var source: SourceOptions

    @Option(name: .long, help: ArgumentHelp("Output directory: new or empty (see --force).", valueName: "DIR"))
    var out: String

    @Option(name: .long, help: "Frames per second, 1…240.")
    var fps: Double = 30

    @Option(name: .long, help: ArgumentHelp("Frame size, even sides up to 7680x4320.", valueName: "WIDTHxHEIGHT"))
    var size: String = FrameSize.hd720.description

    @Option(name: .long, help: ArgumentHelp("How much audio to record, e.g. 30s, 2m, 90 (seconds); default: the whole file, or until Ctrl-C.", valueName: "DURATION"))
    var duration: String?

    @Flag(name: .long, help: "Record into a non-empty DIR, replacing an earlier recording's frames there.")
    var force = false

    func validate() throws {
        try FrameRate.validate(fps)
        guard FrameSize(parsing: size) != nil else {
            throw ValidationError("--size '\(size)': expected \(FrameSize.expectedSyntax)")
        }
        if let duration, Self.seconds(duration) == nil {
            throw ValidationError(
                "--duration '\(SafeText.sanitized(duration, limit: 40))': expected \(DurationText.expectedSyntax), or seconds, "
                    + "greater than 0 and at most 7 days"
            )
        }
        guard !out.isEmpty else { throw ValidationError("--out must name a directory") }
    }

    /// A week: longer than any recording anyone makes, short enough that frame counts and clocks never overflow.
    static let longestDuration = 7 * 86_400.0

    /// Seconds in a `--duration` value: a bare number of seconds or a duration like `30s`; nil when invalid or ≤ 0.
    static func seconds(_ text: String) -> Double? {
        guard let value = Double(text) ?? DurationText.seconds(parsing: text), value.isFinite, value > 0,
              value <= longestDuration else { return nil }
        return value
    }

    func run() async throws {
        try await reportingUserErrors {
            var configuration = try await global.loadConfiguration()
            try source.apply(to: &configuration)
            guard let frameSize = FrameSize(parsing: size) else {
                throw LightShowError("--size '\(size)': expected \(FrameSize.expectedSyntax)", exitStatus: .usage)
            }
            let plan = RecordingPlan(
                directory: out, size: frameSize, framesPerSecond: fps, duration: duration.flatMap(Self.seconds),
                force: force, configuration: configuration
            )
            if source.connect {
                let session = ConnectedRecordSession(socketPath: try await global.controlSocketPath(explicit: source.socket), plan: plan)
                return try await record { try await session.run() }
            }
            let session = RecordSession(plan)
            try await record { try await session.run() }
        }
    }

    /// Runs a recording until it ends or a signal cancels it, then says what it wrote.
    private func record(_ body: @escaping @Sendable () async throws -> RecordSession.Summary) async throws {
        // A file-size limit must surface as a write error (EFBIG), not kill the process mid-frame.
        signal(SIGXFSZ, SIG_IGN)
        let task = Task { try await body() }
        // Ctrl-C or SIGTERM ends a live recording cleanly: the session stops reading and completes its files.
        let stop = SignalCancellation(signals: [SIGINT, SIGTERM]) { task.cancel() }
        defer { stop.cancel() }
        let summary = try await task.value
        printError(
            "lightshow: recorded \(summary.frames) frames (\(Self.tenths(summary.seconds)) s) to \(summary.directory)"
        )
    }

    private static func tenths(_ value: Double) -> String {
        let scaled = Int(saturating: (value * 10).rounded())
        return "\(scaled / 10).\(scaled % 10)"
    }
}
