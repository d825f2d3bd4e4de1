import ArgumentParser
import LightShowCore
import LightShowLights
import LightShowSystem
import Logging

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

struct LightsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lights",
        abstract: "Check the network lights configured as [[lights]] (WLED/DDP, sACN, Art-Net, WLED audio sync, Hue); pair a Hue bridge.",
        subcommands: [LightsTestCommand.self, LightsPairHueCommand.self, LightsMeasureCommand.self]
    )
}

struct LightsTestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Light each configured fixture, strip segment or Hue channel in turn, in its band's colour then white.",
        discussion: """
        For checking the wiring: each output's bass, mid and treble part lights for --step in its band's colour, \
        then in white, while everything else stays black. A WLED audio sync output sweeps its 16 GEQ channels \
        instead, one a step at full height with the peak at its centre and a beat. At the end (or on Ctrl-C) every \
        light goes black and sACN streams end. --list only prints what is configured.

        Examples:
          lightshow lights test --list
          lightshow lights test --step 2s
          lightshow lights test --config lights.toml
        """
    )

    @OptionGroup var global: GlobalOptions

    @Flag(name: .long, help: "Print the configured outputs and exit.")
    var list = false

    @Option(name: .long, help: ArgumentHelp("How long each colour shows (\"500ms\", \"1s\").", valueName: "DURATION"))
    var step = "1s"

    func validate() throws {
        guard let seconds = DurationText.seconds(parsing: step), (0.02...60).contains(seconds) else {
            throw ValidationError("--step must be a duration from 20ms to 1m, got \"\(step)\"")
        }
    }

    func run() async throws {
        try await reportingUserErrors {
            let configuration = try await global.loadConfiguration()
            let lights = configuration.lights
            guard !lights.isEmpty else {
                throw LightShowError("no [[lights]] configured in \(global.configFile ?? "the built-in defaults")", exitStatus: .config)
            }
            if list {
                for (offset, entry) in lights.enumerated() {
                    print("\(entry.displayName(index: offset + 1)): \(entry.summary)")
                }
                return
            }
            try await DedicatedThread.run(name: "ls-lights") { () throws(LightShowError) in
                try walk(lights, configuration: configuration, seconds: DurationText.seconds(parsing: step) ?? 1)
            }
        }
    }

    /// Shows every step on a thread of its own (the waits block), then black; Ctrl-C or SIGTERM cuts it short.
    private func walk(_ lights: [LightOutputSettings], configuration: Configuration, seconds: Double) throws(LightShowError) {
        let stateDirectory = LightsStateDirectory.path(environment: ProcessInfo.processInfo.environment)
        let outputs = try LightsOutputs(
            settings: lights, bands: configuration.bands, background: configuration.background,
            stateDirectory: stateDirectory, logger: Logger(label: "lightshow.lights")
        )
        let interrupted: WakeSignal
        do { interrupted = try WakeSignal() } catch { throw LightShowError("lights: \(error)", exitStatus: .ioError) }
        let signals = SignalCancellation(signals: [SIGINT, SIGTERM]) { interrupted.signal() }
        defer { signals.cancel() }
        let wait = Duration.milliseconds(Int64((seconds * 1000).rounded()))
        var cut = false
        steps: for (offset, entry) in lights.enumerated() {
            if entry.networkProtocol == .wledSync {
                for channel in 0..<SpectrumSummary.channelCount {
                    let edges = SpectrumSummary.channelEdges
                    print("\(entry.displayName(index: offset + 1)) GEQ channel \(channel) (\(Int(edges[channel]))-\(Int(edges[channel + 1])) Hz): full, peak at \(Int(SpectrumSummary.centre(of: channel).rounded())) Hz, beat")
                    outputs.showTest(LightsTestStep(output: offset, band: .bass, color: .white, channel: channel))
                    cut = interrupted.wait(for: wait)
                    if cut { break steps }
                }
                continue
            }
            // A Hue area's channels light one at a time, as its bridge lists them.
            let area = entry.networkProtocol == .hue ? try HueConfigCheck.area(for: entry, stateDirectory: stateDirectory) : nil
            for band in Band.allCases {
                let channels: [HueEntertainmentArea.Channel?] = area.map { area in
                    area.channels.filter { HueEntertainmentArea.band(of: $0, overrides: entry.channelBands) == band }
                } ?? [nil]
                for channel in channels {
                    let place = channel.map { "channel \($0.id) at x \(String(format2: $0.x))" } ?? entry.place(of: band)
                    for (label, color) in [("colour", configuration.bands[band].color), ("white", RGBColor.white)] {
                        print("\(entry.displayName(index: offset + 1)) \(band.rawValue) (\(place)): \(label) \(color.hex)")
                        outputs.showTest(LightsTestStep(output: offset, band: band, color: color, channel: channel?.id))
                        cut = interrupted.wait(for: wait)
                        if cut { break steps }
                    }
                }
            }
        }
        // Black, then sACN's stream-terminated packets.
        outputs.shutdown()
        print(cut ? "interrupted: black" : "black")
        for status in outputs.status { print(status.description) }
    }
}

/// Hidden: feeds frames through the configured outputs at a steady rate, printing `INDEX NANOSECONDS`
/// (CLOCK_MONOTONIC, when the frame was handed over) per frame, for Tests/Benchmarks/lights-latency.sh and the
/// OLA tests. Frame i has bass level (i mod 255 + 1)/255 and the other bands at 0, so a receiver can tell frames
/// apart (with a white bass and gamma 1); `--levels` feeds what `lightshow analyze --format jsonl` found in a
/// file instead. `--stop-after` (implied at the end of `--levels`) stops the show like the engine does (a 0.5 s
/// fade, then a dark frame) and a last `# stopped: …` line says whether that ended every stream by itself.
struct LightsMeasureCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "measure",
        abstract: "Feed frames to the configured lights (benchmarks and tests).",
        shouldDisplay: false
    )

    @OptionGroup var global: GlobalOptions

    @Option(name: .long, help: "Frames fed per second.")
    var fps: Double = 60

    @Option(name: .long, help: "Seconds to run.")
    var seconds: Double = 10

    @Option(name: .long, help: "Stop the show after this many seconds: a 0.5 s fade, then wait for the streams to end.")
    var stopAfter: Double?

    @Option(name: .long, help: "Feed these levels (`lightshow analyze --format jsonl` lines), one a frame.")
    var levels: String?

    func validate() throws {
        guard fps.isFinite, (1...1000).contains(fps), seconds.isFinite, (0.1...3600).contains(seconds),
              stopAfter.map({ $0.isFinite && $0 >= 0 }) ?? true else {
            throw ValidationError("--fps must be 1…1000, --seconds 0.1…3600 and --stop-after at least 0")
        }
    }

    func run() async throws {
        try await reportingUserErrors {
            let configuration = try await global.loadConfiguration()
            let script = try levels.map(Self.readLevels)
            let count = script?.count ?? Int((seconds * fps).rounded())
            let stop = script.map { Double($0.count) / fps } ?? stopAfter.map { min($0, seconds) }
            try await DedicatedThread.run(name: "ls-lights") { () throws(LightShowError) in
                // `[output] delay` too, as the show applies it: the benchmark measures the sync offset this way. The state
                // directory only for Hue pairings (no sACN CID is stored by a measurement).
                let hue = configuration.lights.contains { $0.networkProtocol == .hue }
                let outputs = try LightsOutputs(
                    settings: configuration.lights, bands: configuration.bands, background: configuration.background,
                    output: configuration.output,
                    stateDirectory: hue ? LightsStateDirectory.path(environment: ProcessInfo.processInfo.environment) : nil,
                    logger: Logger(label: "lightshow.lights")
                )
                let period = UInt64((1e9 / fps).rounded())
                let start = MonotonicClock.now() &+ 50_000_000
                var lines = ""
                var last = BandLevels.zero
                // The fade needs 0.5 s of frames past the stop.
                for index in 0..<(count + (stop == nil ? 0 : Int(fps / 2) + 2)) {
                    MonotonicClock.sleep(until: start &+ UInt64(index) &* period)
                    let time = Double(index) / fps
                    if let stop, time >= stop {
                        // The engine's stop: every level fades by the same factor, then one dark frame.
                        let remaining = Float(max(0, 1 - (time - stop) / 0.5))
                        outputs.show(ShowFrame(index: index, time: time, levels: last.scaled(by: remaining), state: .stopped, title: ""))
                        if remaining == 0 { break }
                        continue
                    }
                    last = script?[index] ?? BandLevels(bass: Float(index % 255 + 1) / 255)
                    let sent = MonotonicClock.now()
                    outputs.show(ShowFrame(index: index, time: time, levels: last, state: .playing, title: ""))
                    lines += "\(index) \(sent)\n"
                }
                if stop != nil {
                    let deadline = MonotonicClock.now() &+ 3_000_000_000
                    while outputs.status.contains(where: \.isSending), MonotonicClock.now() < deadline {
                        MonotonicClock.sleep(until: MonotonicClock.now() &+ 10_000_000)
                    }
                    let ended = !outputs.status.contains(where: \.isSending)
                    lines += "# stopped: \(ended ? "every stream ended" : "streams still sending after 3 s")\n"
                }
                outputs.shutdown()
                print(lines, terminator: "")
                for status in outputs.status { printError("lightshow: \(status)") }
            }
        }
    }

    /// The bass, mid and treble of each `analyze --format jsonl` line (at most an hour at 1000 fps).
    static func readLevels(_ path: String) throws -> [BandLevels] {
        struct Line: Decodable {
            var bass: Float
            var mid: Float
            var treble: Float
        }
        let bytes: [UInt8]
        do {
            guard let read = try SmallFile(path: path).read(limit: 256 << 20, followingSymlinks: true) else {
                throw LightShowError("--levels \(path): not found", exitStatus: .noInput)
            }
            bytes = read
        } catch let error as SystemCallError {
            throw LightShowError("--levels \(error)", exitStatus: .noInput)
        }
        let decoder = JSONDecoder()
        var levels: [BandLevels] = []
        for (number, line) in bytes.split(separator: UInt8(ascii: "\n")).enumerated() where !line.isEmpty {
            guard levels.count < 3_600_000, let entry = try? decoder.decode(Line.self, from: Data(line)) else {
                throw LightShowError("--levels \(path):\(number + 1): expected an analyze jsonl line", exitStatus: .dataError)
            }
            levels.append(BandLevels(bass: entry.bass, mid: entry.mid, treble: entry.treble))
        }
        return levels
    }
}
