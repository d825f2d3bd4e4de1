public import LightShowCore
public import LightShowControl
import LightShowEngine
import LightShowConfig
import LightShowAudio
import LightShowLights
public import Logging
public import ServiceLifecycle
import LightShowSystem
import Synchronization
import UnixSignals

#if canImport(Glibc)
public import Glibc
#endif

/// `lightshow daemon`: captures the configured input, runs the show, serves the control socket, and tells
/// systemd how it is doing (READY, STATUS, WATCHDOG while capture progresses, RELOADING around a reload,
/// STOPPING at shutdown). Run it in a `ServiceGroup` that shuts it down gracefully on SIGTERM/SIGINT.
public final class DaemonService: Service, Sendable {
    public let configurationSource: DaemonConfigurationSource
    public let socketPath: String
    public let state: DaemonState
    let notifier: SystemdNotifier
    let framesPerSecond: Double
    /// The group given the control socket (`--socket-group`), nil to leave it to the daemon's own group.
    let socketGroup: gid_t?
    let logger: Logger
    /// The network lights: a sink of every engine the daemon runs, kept across input restarts and reloads.
    let lights: LightsOutputs
    /// One reload at a time: SIGHUP and `ctl reload` may race.
    private let reloading = Mutex(())
    /// Set once READY=1 went out: a reload before then (SIGHUP while a Pulse server is awaited) must not send it early.
    private let isReady = Atomic(false)
    private let connectionCounts = Mutex<Callback<Void, (clients: Int, subscribers: Int)>?>(nil)
    /// Tells subscribers the scene (set once the control server runs).
    private let sceneOutlet = Mutex<Callback<JSONValue, Void>?>(nil)

    /// Loads the configuration and finds the control socket. Throws a `UserFacingError`: 78 for a bad config
    /// (every problem listed), 66 for a missing `--config` file.
    public init(
        configurationSource: DaemonConfigurationSource,
        environment: [String: String],
        framesPerSecond: Double = 60,
        socketGroup: gid_t? = nil,
        logger: Logger = Logger(label: "lightshow.daemon")
    ) throws {
        let configuration = try configurationSource.load { logger.warning("\($0)") }
        self.configurationSource = configurationSource
        socketPath = try ControlSocketPath.resolve(configured: configuration.control.socket, environment: environment)
        state = DaemonState(configuration: configuration)
        lights = try LightsOutputs(
            settings: configuration.lights, bands: configuration.bands, background: configuration.background,
            stateDirectory: LightsStateDirectory.path(environment: environment), logger: Logger(label: "lightshow.lights")
        )
        notifier = SystemdNotifier(environment: environment)
        self.framesPerSecond = framesPerSecond
        self.socketGroup = socketGroup
        self.logger = logger
    }

    public func run() async throws {
        let configuration = state.configuration
        let server: ControlServer<DaemonControlHandler>
        do {
            let madeDirectory = try ControlSocketPath.prepareDirectory(for: socketPath)
            server = try ControlServer(
                path: socketPath, handler: DaemonControlHandler(daemon: self),
                options: .init(maxClients: configuration.control.maxClients, idleSeconds: configuration.control.idleTimeoutSeconds)
            )
            if let socketGroup {
                // The default places are the daemon's own directories; a configured one only if made just now.
                let ownsDirectory = madeDirectory || configuration.control.socket.isEmpty
                try ControlSocketPath.share(socketPath, withGroup: socketGroup, directoryToo: ownsDirectory)
            }
        } catch {
            throw LightShowError("control socket \(socketPath): \(error)", exitStatus: .ioError)
        }
        connectionCounts.withLock { $0 = Callback { server.connectionCounts } }
        sceneOutlet.withLock { $0 = Callback { server.publishScene($0) } }
        publishScene(configuration)
        server.start()
        logger.info("control socket \(socketPath)")
        defer { server.shutdown() }

        let subscribers = FrameHandler { [state] frame in
            state.record(frame)
            server.publishFrame(ShowFrameEvent.encode(frame))
        }
        let supervisor = CaptureSupervisor(
            state: state, framesPerSecond: framesPerSecond, logger: logger, sinks: [subscribers, lights]
        )
        // At shutdown the lights go black and sACN receivers are told the stream ended.
        defer { lights.shutdown() }
        let hangups = await UnixSignalsSequence(trapping: .sighup)
        await withDiscardingTaskGroup { group in
            group.addTask { [self] in
                await supervisor.run { [self] in
                    notify { try notifier.ready() }
                    isReady.store(true, ordering: .releasing)
                    logger.info("ready")
                }
            }
            group.addTask { [self] in
                await reportStatus(changes: [state.changes, lights.statusChanges, server.countChanges])
            }
            if let watchdog = CaptureWatchdog(notifier: notifier) {
                logger.info("watchdog: a ping every \(watchdog.interval) while capture progresses")
                group.addTask { [state] in await watchdog.run { state.watchdogStatistics } }
            }
            group.addTask { [self] in
                for await _ in hangups { _ = await reload(caller: "SIGHUP") }
            }
            // Until SIGTERM/SIGINT (or cancellation); then tell systemd and stop every task.
            try? await gracefulShutdown()
            notify { try notifier.stopping() }
            logger.info("stopping")
            group.cancelAll()
        }
    }

    /// Runs in a `ServiceGroup` that shuts the daemon down gracefully on SIGTERM or SIGINT.
    public func runUntilSignalled() async throws {
        let group = ServiceGroup(configuration: .init(
            services: [.init(service: self)],
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger
        ))
        try await group.run()
    }

    /// The daemon right now, for `ctl status` and `STATUS=`.
    public var status: DaemonStatus {
        let configuration = state.configuration
        let source = state.source
        let counts = connectionCounts.withLock { $0 }?.call(()) ?? (clients: 0, subscribers: 0)
        return DaemonStatus(
            input: configuration.input.source,
            sampleRate: source?.sampleRate,
            channels: source?.channels,
            openError: state.openError,
            capture: state.captureStatistics,
            show: state.engine?.status,
            levels: state.latestFrame?.levels ?? .zero,
            bands: configuration.bands,
            clients: counts.clients,
            subscribers: counts.subscribers,
            configFile: configurationSource.file,
            lights: lights.status,
            silent: state.captureStatistics.isSilent(now: MonotonicClock.now())
        )
    }

    /// A user's play/pause/toggle/stop; false when no input is open to apply it to.
    public func send(_ command: UserCommand) -> Bool {
        guard let engine = state.engine else { return false }
        engine.send(command)
        return true
    }

    /// Reads the configuration again. A bad one leaves the running one in place and its errors go back to the
    /// caller; a good one applies live, reopening the input only when `[input]` (or `[mpd]`) changed.
    /// On a thread of its own: the parser's child process and the lights' host lookups block, and so does the wait
    /// for a reload already under way.
    public func reload(caller: String) async -> ControlReply {
        await offPool("ls-reload") { $0.reloadNow(caller: caller) }
    }

    /// `set-band` (see `setBandNow`), off the pool: it waits for any reload under way.
    public func setBand(_ arguments: JSONObject) async -> ControlReply {
        await offPool("ls-set-band") { $0.setBandNow(arguments) }
    }

    private func offPool(_ name: String, _ body: @escaping @Sendable (DaemonService) -> ControlReply) async -> ControlReply {
        do {
            return try await DedicatedThread.run(name: name) { [self] in body(self) }
        } catch {
            return .failure(error.message)
        }
    }

    private func reloadNow(caller: String) -> ControlReply {
        reloading.withLock { _ in
            let announces = isReady.load(ordering: .acquiring)
            if announces { notify { try notifier.reloading() } }
            defer { if announces { notify { try notifier.ready() } } }
            var warnings: [String] = []
            let new: Configuration
            do throws(ConfigurationError) {
                new = try configurationSource.load { warnings.append($0) }
            } catch {
                logger.error("reload (\(caller)) failed; keeping the running configuration:\n\(error.description)")
                return .failure(error.description)
            }
            for warning in warnings { logger.warning("\(warning)") }
            // Lights first: they may look host names up; if they can't take the new entries, nothing changes.
            do throws(LightShowError) {
                try lights.reconfigure(new)
            } catch {
                logger.error("reload (\(caller)) failed; keeping the running configuration: \(error.message)")
                return .failure(error.message)
            }
            let old = state.replaceConfiguration(with: new)
            publishScene(new)
            let restart = new.input != old.input || new.mpd != old.mpd || new.player != old.player || new.mpris != old.mpris
            if restart {
                state.restartCapture()
            } else {
                state.reconfigureEngine()
            }
            if new.control != old.control {
                logger.warning("[control] changes take effect when the daemon restarts")
            }
            logger.info("reloaded (\(caller))\(restart ? "; reopening \(new.input.source)" : "")")
            return .success([
                "config": .string(configurationSource.file ?? "(built-in defaults)"),
                "input_restarted": .bool(restart),
                "warnings": .array(warnings.map { .string($0) }),
            ])
        }
    }

    /// `set-band`: a band's range from a viewer's tuning panel, checked exactly as the config file checks it (an
    /// error names the key), applied to the analysis at once and told to every viewer. The config file is left as
    /// it is: a reload goes back to it.
    private func setBandNow(_ arguments: JSONObject) -> ControlReply {
        guard let name = arguments["band"]?.stringValue, let band = Band(rawValue: name) else {
            let given = arguments["band"].map { SafeText.sanitized("\($0)", limit: 40) } ?? "nothing"
            return .failure("band must be one of bass, mid, treble, found \(given)")
        }
        var lines = ["[bands.\(band.rawValue)]"]
        for key in ["lower", "upper"] {
            guard let value = arguments[key] else { continue }
            guard let number = value.numberValue, number.isFinite else {
                return .failure("bands.\(band.rawValue).\(key): expected a number of Hz, found \(SafeText.sanitized("\(value)", limit: 40))")
            }
            lines.append("\(key) = \(number)")
        }
        return reloading.withLock { _ in
            let current = state.configuration
            let report = ConfigurationLoader.parse(lines.joined(separator: "\n"), over: current)
            guard !report.hasErrors else {
                return .failure(report.errors.map(\.description).joined(separator: "; "))
            }
            var new = current
            new.bands = report.configuration.bands
            _ = state.replaceConfiguration(with: new)
            state.reconfigureEngine()
            publishScene(new)
            let range = new.bands[band].range
            logger.info("set-band: \(band.rawValue) \(range.lower.compact)–\(range.upper.compact) Hz")
            return .success(["band": .string(band.rawValue), "lower": .number(range.lower), "upper": .number(range.upper)])
        }
    }

    private func publishScene(_ configuration: Configuration) {
        let event = ShowSceneEvent.encode(Scene.Style(configuration))
        sceneOutlet.withLock { $0 }?.call(event)
    }

    /// Sends `STATUS=` when its line changes. Pushed, not polled: it sleeps until a part of the daemon announces a
    /// change (`changes`), so a stopped, silent daemon runs nothing here. Start-up's first states, a few
    /// milliseconds apart, go out as they come; a longer burst of changes (clients connecting by the hundred) is
    /// held to `statusLines`' rate, each line then saying what holds after the wait.
    private func reportStatus(changes: [Announcer]) async {
        let (rings, bell) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        for announcer in changes { announcer.listen { bell.yield() } }
        defer { for announcer in changes { announcer.listen(nil) } }
        bell.yield()
        var last = ""
        var lines = Self.statusLines
        for await _ in rings {
            var line = status.statusLine
            guard line != last else { continue }
            let now = MonotonicClock.now()
            if let due = lines.take(at: now) {
                try? await Task.sleep(for: .nanoseconds(Int64(due - now)))
                lines.spend(at: MonotonicClock.now())
                line = status.statusLine
                guard line != last else { continue }
            }
            notify { try notifier.status(line) }
            last = line
        }
    }

    static let statusLines = TokenBucket(perSecond: 10, burst: 4)

    /// A notification that can't be sent is logged, never fatal: systemd acts on what it doesn't hear.
    private func notify(_ send: () throws -> Void) {
        do {
            try send()
        } catch {
            logger.warning("sd_notify: \(error)")
        }
    }
}
