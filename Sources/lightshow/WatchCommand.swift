import LightShowSystem
import ArgumentParser
import LightShowAudio
import LightShowCore
import LightShowControl
import LightShowNowPlaying
import LightShowRender
import LightShowTerminal

#if canImport(Glibc)
import Glibc
#endif

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `--color` values.
enum ColorOption: String, CaseIterable, ExpressibleByArgument {
    case auto, truecolor
    case palette256 = "256"
    case ansi16 = "16"
    case none

    var depth: TerminalColorDepth? {
        switch self {
        case .auto: nil
        case .truecolor: .truecolor
        case .palette256: .palette256
        case .ansi16: .ansi16
        case .none: TerminalColorDepth.none
        }
    }
}

struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Show the lights in the terminal.",
        discussion: """
        Keys: space play/pause · p play · s stop · q quit · ? help · t tune bands
        Tuning: 1/2/3 pick a band · ←/→ move the knob · Tab switch knob · t close. The tuned ranges are printed
        as TOML on quit.

        Examples:
          lightshow watch --input demo
          lightshow watch --input alsa:pulse --fps 30
          lightshow watch --input song.flac --color 256
          lightshow watch --connect        (attach to a running daemon)
        """
    )

    @OptionGroup var global: GlobalOptions

    @OptionGroup var source: SourceOptions

    @Option(name: .long, help: "Frames per second, 1…240.")
    var fps: Double = 60

    @Option(name: .long, help: "Colours: auto (from COLORTERM/TERM/NO_COLOR, else asks the terminal), truecolor, 256, 16 or none.")
    var color: ColorOption = .auto

    func validate() throws {
        try FrameRate.validate(fps)
    }

    func run() async throws {
        let outcome = try await reportingUserErrors { try await watch() }
        if case .signal(let number) = outcome {
            // Only reached if the signal could not end us on the viewer thread.
            throw ExitCode(128 + number)
        }
    }

    private func watch() async throws -> TerminalViewer.Outcome {
        var configuration = try await global.loadConfiguration()
        try source.apply(to: &configuration)
        var remote: RemoteShowFeed?
        if source.connect {
            let path = try await global.controlSocketPath(explicit: source.socket)
            remote = try await RemoteShowFeed.attach(path: path, framesPerSecond: fps)
        }
        let subscription = remote?.subscription
        // The terminal (its settings, the colour query's answer, terminfo, the help marker) and the input block: on a
        // thread of their own.
        let (session, viewer, local) = try await DedicatedThread.complete(name: "ls-watch-open") { [self, configuration, remote] in
            try prepare(configuration, remote: remote)
        }
        let pipeline: Task<Void, any Error>
        if let local {
            pipeline = Task {
                do {
                    try await local.run()
                } catch {
                    // The input failed for good: leave the screen so the error can be read.
                    if !(error is CancellationError) { session.stopViewing() }
                    throw error
                }
            }
        } else {
            pipeline = Task {}
        }
        defer { subscription?.close() }
        let outcome = try await DedicatedThread.run(name: "ls-watch") {
            let outcome = viewer.run()
            // The terminal is restored; die by the signal as the shell expects (exit status 128+n). From this thread,
            // which unblocked the signals, because the pool's threads block them.
            if case .signal(let number) = outcome {
                signal(number, SIG_DFL)
                raise(number)
            }
            return outcome
        }
        pipeline.cancel()
        if viewer.controls.hasTuned, outcome == .quit {
            print("# Tuned band ranges for lightshow.toml:")
            print(viewer.controls.tuning.tomlSnippet, terminator: "")
        }
        if let reason = subscription?.endReason {
            throw LightShowError("watch --connect \(subscription?.path ?? ""): \(reason)", exitStatus: .ioError)
        }
        // A pipeline failure (the input was lost for good) is reported after the terminal is restored.
        if outcome == .quit || outcome == .feedFailed, case .failure(let error) = await pipeline.result,
           !(error is CancellationError) {
            throw error
        }
        return outcome
    }

    /// The terminal taken over, the viewer on it, and the local show feeding it (nil with `remote`). Blocks.
    private func prepare(
        _ configuration: Configuration, remote: RemoteShowFeed?
    ) throws -> (TerminalSession, TerminalViewer, EngineShowFeed?) {
        let environment = ProcessInfo.processInfo.environment
        let session = try TerminalSession()
        let marker = HelpMarker(environment: environment)
        // A palette from TERM may undersell the terminal (xterm): ask it, unless --color said.
        let depth = TerminalColorQuery.depth(detected: TerminalColorDepth.detect(environment: environment, override: color.depth)) {
            guard color == .auto else { return [] }
            session.enter()
            return session.ask($0, timeout: TerminalColorQuery.timeoutNanoseconds) { TerminalColorQuery.read($0) != .incomplete }
        }
        let options = TerminalViewer.Options(
            framesPerSecond: fps,
            depth: depth,
            style: Scene.Style(configuration),
            showHelp: !marker.wasShown,
            erasesRuns: TerminfoLookup.entry(environment: environment)?.backColorErase ?? false
        )
        if options.showHelp { marker.markShown() }

        if let remote {
            return (session, try TerminalViewer(session: session, feed: remote, options: options), nil)
        }
        let local = EngineShowFeed(
            source: try openSource(configuration), configuration: configuration, framesPerSecond: fps,
            player: try NowPlayingSources.make(configuration)
        )
        return (session, try TerminalViewer(session: session, feed: local, options: options), local)
    }

    /// Opens the input; a capture device that won't open gets a hint towards inputs that need none.
    private func openSource(_ configuration: Configuration) throws -> any AudioSource {
        if configuration.input.source == .stdin {
            throw LightShowError(
                "--input stdin: watch reads its keys from the terminal; pipe audio through a fifo (--input fifo:PATH) instead",
                exitStatus: .usage
            )
        }
        do {
            return try AudioSources.open(configuration.input.source, pcmFormat: configuration.input.pcmFormat, pacing: .realtime)
        } catch let error as any UserFacingError {
            guard case .alsa = configuration.input.source else { throw error }
            throw LightShowError(
                "\(error.description)\nno capture device opened: try `lightshow watch --input demo` or a file (`--input song.flac`)",
                exitStatus: error.exitStatus
            )
        }
    }
}
