import LightShowSystem
public import LightShowCore
import Logging

/// Live capture from PulseAudio or pipewire-pulse (`--input pulse`, `pulse:SOURCE`) through libpulse's
/// asynchronous API.
///
/// `pulse` records the monitor of the default sink (what plays), never the default source (on a desktop, the
/// microphone), and follows the default sink when it changes or vanishes. A lost server is reconnected with
/// backoff while the source yields silence, so the show fades to idle and resumes on its own.
public final class PulseCaptureSource: AudioSource {
    public let spec: InputSpec
    public let sampleRate = 48_000
    public let channels = 2
    public var isLive: Bool { true }
    private let opened: Locked<PulseCaptureLoop?>
    private let recorder = StatisticsRecorder()

    public var statistics: CaptureStatistics { recorder.snapshot }
    public var statisticsChanges: Announcer? { recorder.changes }

    /// Connects and finds what to record now, so an unknown source fails at start (exit 66).
    /// - Parameter waitsForServer: true (the daemon) waits for a server that isn't there yet; false (`analyze`,
    ///   `watch`, `record`) fails at once (exit 74), since the user is there to start one or pick another input.
    /// - Parameter server: the server's address (`unix:/path`); nil = libpulse's default (`PULSE_SERVER`, else the
    ///   session's own server).
    public init(source: String?, waitsForServer: Bool = false, server: String? = nil) throws(LightShowError) {
        let spec = InputSpec.pulse(source: source)
        do {
            try PulseLibrary.load()
        } catch {
            throw LightShowError("input \(spec): \(error.message)", exitStatus: .ioError)
        }
        let logger = Logger(label: "lightshow.capture")
        let inbox: PulseInbox
        do {
            inbox = try PulseInbox(maximumSamples: sampleRate / 10 * channels)
        } catch {
            throw LightShowError("input \(spec): \(error)", exitStatus: .ioError)
        }
        var loop = PulseCaptureLoop(spec: spec, explicitSource: source, sampleRate: sampleRate, channels: channels,
                                    inbox: inbox, recorder: recorder, logger: logger)
        loop.server = server
        loop.connect()
        loop.settle(within: 3)
        if loop.unknownSource {
            throw LightShowError(
                "input \(spec): no such PulseAudio/PipeWire source; run `lightshow devices` to list the names to use",
                exitStatus: .noInput)
        }
        if loop.connection == nil || !loop.contextReady {
            let reason = loop.lastFailure ?? "no answer within 3 s"
            guard waitsForServer else {
                throw LightShowError(
                    "input \(spec): no PulseAudio or PipeWire server answers (\(reason)); start one, or pick another input from `lightshow devices`",
                    exitStatus: .ioError)
            }
            logger.warning("\(spec): no sound server yet (\(reason)); waiting for one")
            if loop.serverLost == nil { loop.serverLost = reason }
            recorder.update { $0.state = .lost }
        } else if let reason = loop.lastUnresolved {
            logger.warning("\(spec): nothing to record yet (\(reason)); waiting for it")
            loop.unresolvedAnnounced = true
        }
        self.spec = spec
        opened = Locked(loop)
    }

    // About 170 ms may queue for a slow consumer, as for ALSA.
    /// Starts the capture thread on the connection made at start-up (once: a second call fails).
    public func startReading(into sink: BlockSink) throws(LightShowError) {
        guard opened.withLock({ $0 != nil }) else {
            throw LightShowError("input \(spec) is already being read", exitStatus: .usage)
        }
        let opened = opened
        // The thread takes the loop out of `opened` itself: a copy captured by the closure would keep the first
        // stream and connection alive for as long as the thread runs.
        try DedicatedThread.start(name: "ls-pulse") {
            guard var running = opened.withLock({ current in defer { current = nil }; return current }) else {
                return sink.finish(LightShowError("input pulse is already being read", exitStatus: .usage))
            }
            running.run(into: sink)
        }
    }
}
