import ArgumentParser
import LightShowAudio
import LightShowCore
import LightShowEngine
import LightShowNowPlaying
import LightShowSystem

/// `--format` values; mirrors `AnalysisOutputFormat` so the core type needs no ArgumentParser conformance.
enum AnalyzeFormatOption: String, CaseIterable, ExpressibleByArgument {
    case jsonl, csv, ascii, onsets

    var outputFormat: AnalysisOutputFormat {
        switch self {
        case .jsonl: .jsonl
        case .csv: .csv
        case .ascii: .ascii
        case .onsets: .onsets
        }
    }
}

struct AnalyzeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analyze",
        abstract: "Print band levels (bass, mid, treble) as data, one line per frame.",
        discussion: """
        Formats:
          jsonl   {"t":1.2333,"bass":0.82,"mid":0.10,"treble":0.02,"envelope":{"bass":0.82,"mid":0.10,"treble":0.02},
                  "accent":{"bass":0.00,"mid":0.00,"treble":0.00},"state":"playing"} (on one line)
          csv     a header line, then t,bass,mid,treble,state
          ascii   cava's raw ascii output: B;M;T; with integers 0…1000, one frame per line
          onsets  one line per onset, TIME BAND STRENGTH: 12.3467 bass 0.84 (seconds of audio; bass, mid or
                  treble; 0…1)

        A band's level is the larger of its envelope and its accent (see [accents] in the config).

        A file is analysed as fast as possible (unless --realtime); live inputs print each frame as it is computed.

        Examples:
          lightshow analyze --input song.flac --format jsonl > levels.jsonl
          lightshow analyze --input fifo:/tmp/mpd.fifo --format ascii
          lightshow analyze --input demo --format ascii --realtime
          sox song.wav -t raw -r 48000 -b 16 -e signed -c 2 - | lightshow analyze --input - --format-pcm 48000:16:2
        """
    )

    @OptionGroup var global: GlobalOptions

    @OptionGroup var inputFlags: InputOptions

    @Option(name: .long, help: ArgumentHelp("Frames per second, 1…240 (default: 60).", valueName: "N"))
    var fps: Double?

    @Option(name: .long, help: "Output format: jsonl, csv, ascii or onsets.")
    var format: AnalyzeFormatOption = .jsonl

    @Flag(name: .long, help: "Pace a file (or the demo) in real time instead of as fast as possible.")
    var realtime = false

    /// Frames per second after the default.
    var framesPerSecond: Double { fps ?? 60 }

    @OptionGroup var player: PlayerOptions

    func validate() throws {
        try FrameRate.validate(framesPerSecond)
    }

    func run() async throws {
        try await reportingUserErrors {
            var configuration = try await global.loadConfiguration()
            try configuration.apply(inputFlags)
            player.apply(to: &configuration)
            try await analyze(configuration)
        }
    }

    private func analyze(_ configuration: Configuration) async throws {
        let formatter = AnalysisLineFormatter(format: format.outputFormat)
        // Opening the input (a pulse input waits up to 3 s for its server) and writing to stdout block: on a thread of
        // their own.
        let (source, player, writer) = try await DedicatedThread.complete(name: "ls-analyze-open") { [self] in
            let source = try AudioSources.open(
                configuration.input.source,
                pcmFormat: configuration.input.pcmFormat,
                pacing: realtime ? .realtime : .natural
            )
            let player = try NowPlayingSources.make(configuration)
            let writer = StandardOutputWriter(immediate: source.isLive || realtime)
            if let header = formatter.header {
                writer.buffer.append(contentsOf: header.utf8)
                try writer.frameDone()
            }
            return (source, player, writer)
        }
        let engine = ShowEngine(
            source: source, configuration: configuration, options: .init(framesPerSecond: framesPerSecond), player: player
        )
        do {
            try await engine.run([AnalyzeOutput(formatter: formatter, writer: writer)])
        } catch is OutputClosed {
            return
        }
        try await DedicatedThread.complete(name: "ls-analyze-out") { try writer.flush() }
    }
}

/// The reader of stdout went away: stop quietly.
private struct OutputClosed: Error {}

/// One line per frame to stdout. The engine calls its sinks in order after letting go of its lock, never twice at
/// once, which is what makes the unchecked Sendable safe.
private final class AnalyzeOutput: ShowSink, @unchecked Sendable {
    let formatter: AnalysisLineFormatter
    let writer: StandardOutputWriter

    init(formatter: AnalysisLineFormatter, writer: StandardOutputWriter) {
        self.formatter = formatter
        self.writer = writer
    }

    func show(_ frame: ShowFrame) throws {
        formatter.append(frame, to: &writer.buffer)
        // Flushed per frame live (each onset as decided); a frame without onsets adds nothing to flush.
        guard !writer.buffer.isEmpty else { return }
        try writer.frameDone()
        if writer.isClosed { throw OutputClosed() }
    }
}
