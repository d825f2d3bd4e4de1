public import LightShowCore
public import LightShowControl
import LightShowEngine
import LightShowConfig
import LightShowAudio
import LightShowLights
import LightShowMQTT
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
    /// The capture in progress and its retries.
    let supervisor: CaptureSupervisor
    let notifier: SystemdNotifier
    let framesPerSecond: Double
    /// The group given the control socket (`--socket-group`), nil to leave it to the daemon's own group.
    let socketGroup: gid_t?
    let logger: Logger
    /// The network lights: a sink of every engine the daemon runs, kept across input restarts and reloads.
    let lights: LightsOutputs
    /// Reloads and `set-band`, one at a time on a thread of their own: SIGHUP and `ctl reload` may race.
    let reloads = ReloadQueue()
    /// Where reloads and edits do their blocking steps (`reloadThread()`).
    let reloadWorker = Mutex<WorkerThread?>(nil)
    /// Set once READY=1 went out: a reload before then (SIGHUP while a Pulse server is awaited) must not send it early.
    let isReady = Atomic(false)
    private let connectionCounts = Mutex<Callback<Void, ControlCounts>?>(nil)
    /// The control server's clients, subscribers among them, and the frames subscribers dropped.
    typealias ControlCounts = (clients: Int, subscribers: Int, droppedFrames: UInt64)
    /// What `/metrics` shows that isn't kept elsewhere.
    public let metrics = DaemonMetrics()
    /// Holds frames back by `[output] delay` before subscribers get them (set once the control server runs).
    let subscriberDelay = Mutex<DelayedSink?>(nil)
    /// Tells subscribers the scene (set once the control server runs).
    private let sceneOutlet = Mutex<Callback<JSONValue, Void>?>(nil)
    /// Home Assistant over MQTT; nil without `[mqtt] broker`.
    let mqtt: DaemonMQTT?
    /// The newest scene and frame, for control-socket subscribers and web viewers alike.
    let events = ShowEventBoard()
    /// The page, HTTP API and `/metrics` (`[web]`), served by a process of its own; none runs until `listen` is set.
    let web: DaemonWeb
    /// The input the configuration names (not one a client switched to): always offered to clients.
    let configuredInput: Mutex<InputSpec>
    /// The inputs clients may switch to, as last read (`InputChoices`); shown by `status`. Nil until first read.
    let offeredInputs = Mutex<[String]?>(nil)
    /// Set once the first read of `offeredInputs` has started.
    let offeredInputsRequested = Atomic<Bool>(false)

    /// Loads the configuration and finds the control socket. Throws a `UserFacingError`: 78 for a bad config
    /// (every problem listed), 66 for a missing `--config` file, or when `[mqtt] password_file` can't be read.
    /// `version` is what Home Assistant's device block shows.
    public init(
        configurationSource: DaemonConfigurationSource,
        environment: [String: String],
        framesPerSecond: Double = 60,
        socketGroup: gid_t? = nil,
        version: String = "0.1.0",
        logger: Logger = Logger(label: "lightshow.daemon")
    ) throws {
        let configuration = try configurationSource.load { logger.warning("\($0)") }
        self.configurationSource = configurationSource
        configuredInput = Mutex(configuration.input.source)
        socketPath = try ControlSocketPath.resolve(configured: configuration.control.socket, environment: environment)
        state = DaemonState(configuration: configuration)
        supervisor = CaptureSupervisor(state: state, framesPerSecond: framesPerSecond, metrics: metrics.engine, logger: logger)
        // At the daemon's level, as MQTT and the web: a stream lost and back again is logged at notice.
        var lightsLogger = Logger(label: "lightshow.lights")
        lightsLogger.logLevel = logger.logLevel
        lights = try LightsOutputs(
            settings: configuration.lights, bands: configuration.bands.dimmed(by: configuration.scene.brightness),
            background: configuration.background.dimmed(by: configuration.scene.brightness),
            output: configuration.output, stateDirectory: LightsStateDirectory.path(environment: environment),
            logger: lightsLogger
        )
        notifier = SystemdNotifier(environment: environment)
        var mqttLogger = Logger(label: "lightshow.mqtt")
        mqttLogger.logLevel = logger.logLevel
        mqtt = try DaemonMQTT.make(settings: configuration.mqtt, version: version, logger: mqttLogger)
        var webLogger = Logger(label: "lightshow.web")
        webLogger.logLevel = logger.logLevel
        web = DaemonWeb(socketPath: socketPath, logger: webLogger)
        self.framesPerSecond = framesPerSecond
        self.socketGroup = socketGroup
        self.logger = logger
    }

    /// `init` on a thread of its own, for async callers: reading the config (and the parser's probe process), the
    /// lights' host-name lookups, the MQTT password file and the group database all block. `socketGroupName` is
    /// `--socket-group`, looked up first: a name with no group is a usage error (exit 64).
    public static func make(
        configurationSource: DaemonConfigurationSource,
        environment: [String: String],
        framesPerSecond: Double = 60,
        socketGroupName: String? = nil,
        logger: Logger = Logger(label: "lightshow.daemon")
    ) async throws -> DaemonService {
        try await DedicatedThread.complete(name: "ls-daemon-init") {
            let group = try socketGroupName.map { name in
                guard let gid = ControlSocketPath.groupID(named: name) else {
                    throw LightShowError("--socket-group: no group named '\(SafeText.sanitized(name, limit: 40))'", exitStatus: .usage)
                }
                return gid
            }
            return try DaemonService(
                configurationSource: configurationSource, environment: environment, framesPerSecond: framesPerSecond,
                socketGroup: group, logger: logger
            )
        }
    }

    public func run() async throws {
        let configuration = state.configuration
        reloads.start { [self] in await apply($0) }
        defer { reloads.stop() }
        let server: ControlServer<DaemonControlHandler>
        do {
            // Directories, the socket and its owner: system calls, on a thread of their own.
            server = try await DedicatedThread.complete(name: "ls-control-open") { [self] in
                let madeDirectory = try ControlSocketPath.prepareDirectory(for: socketPath)
                let server = try ControlServer(
                    path: socketPath, handler: DaemonControlHandler(daemon: self),
                    options: .init(maxClients: configuration.control.maxClients, idleSeconds: configuration.control.idleTimeoutSeconds),
                    events: events
                )
                if let socketGroup {
                    // The default places are the daemon's own directories; a configured one only if made just now.
                    let ownsDirectory = madeDirectory || configuration.control.socket.isEmpty
                    try ControlSocketPath.share(socketPath, withGroup: socketGroup, directoryToo: ownsDirectory)
                }
                return server
            }
        } catch {
            throw LightShowError("control socket \(socketPath): \(error)", exitStatus: .ioError)
        }
        connectionCounts.withLock {
            $0 = Callback {
                let counts = server.connectionCounts
                return (counts.clients, counts.subscribers, server.droppedFrames)
            }
        }
        sceneOutlet.withLock { $0 = Callback { server.publishScene($0) } }
        publishScene(configuration)
        server.start()
        logger.info("control socket \(socketPath)")
        defer { server.shutdown() }
        try await startWeb(configuration.web)

        let status = FrameHandler { [state, mqtt] frame in
            state.record(frame)
            mqtt?.frame(frame.levels)
        }
        let subscribers = try DelayedSink(
            FrameHandler { frame in server.publishFrame(ShowFrameEvent.encode(frame)) },
            delayMilliseconds: configuration.output.delayMilliseconds
        )
        subscriberDelay.withLock { $0 = subscribers }
        defer { subscribers.close() }
        let hangups = await UnixSignalsSequence(trapping: .sighup)
        await withDiscardingTaskGroup { group in
            group.addTask { [self] in
                await supervisor.run(sinks: [status, subscribers, lights]) { [self] in
                    notify { try notifier.ready() }
                    isReady.store(true, ordering: .releasing)
                    logger.info("ready")
                }
            }
            group.addTask { [self] in
                await reportStatus(changes: [state.changes, lights.statusChanges, server.countChanges] + (mqtt.map { [$0.connection.stateChanges] } ?? []))
            }
            if let mqtt {
                group.addTask { [self] in
                    // Home Assistant's select offers the inputs: read once at start, off the pool. Without MQTT they
                    // are read when `status` first asks (`statusInputs`).
                    let inputs = (try? await DedicatedThread.run(name: "ls-inputs") { [self] in refreshOfferedInputs() }) ?? ["demo"]
                    await mqtt.run(handler: DaemonControlHandler(daemon: self, channel: .mqtt), inputs: inputs) { [self] in self.status }
                }
            }
            if let watchdog = CaptureWatchdog(notifier: notifier) {
                logger.info("watchdog: a ping every \(watchdog.interval) while capture progresses")
                group.addTask { [supervisor] in await watchdog.run { supervisor.watchdogStatistics } }
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
        await web.stop()
        await stopLights()
    }

    /// The lights go black and sACN receivers are told the stream ended. That waits for the lights' thread (up to
    /// its stop limits): on a thread of its own, else here, since the lights must go dark either way.
    private func stopLights() async {
        do {
            try await DedicatedThread.complete(name: "ls-lights-stop") { [lights] in lights.shutdown() }
        } catch {
            lights.shutdown()
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
        let source = supervisor.source
        let counts = controlCounts
        return DaemonStatus(
            input: configuration.input.source,
            sampleRate: source?.sampleRate,
            channels: source?.channels,
            openError: supervisor.openError,
            capture: supervisor.statistics,
            show: supervisor.engine?.status,
            levels: state.latestFrame?.levels ?? .zero,
            bands: configuration.bands,
            clients: counts.clients,
            subscribers: counts.subscribers,
            configFile: configurationSource.file,
            lights: lights.status,
            silent: supervisor.statistics.isSilent(now: MonotonicClock.now()),
            brightness: configuration.scene.brightness,
            mqtt: mqtt?.state ?? .off,
            inputs: statusInputs(),
            web: web.status
        )
    }

    private var controlCounts: ControlCounts {
        connectionCounts.withLock { $0 }?.call(()) ?? (clients: 0, subscribers: 0, droppedFrames: 0)
    }

    /// The metrics in the Prometheus text format (`ctl metrics`, and the web server's `GET /metrics`, which adds its
    /// own counts as `web`).
    public func metricsText(web: WebServerCounts? = nil) -> String {
        let counts = controlCounts
        return DaemonMetricsReport(
            framesEmitted: metrics.engine.framesEmitted,
            capture: supervisor.captureTotals,
            inputOpen: supervisor.source != nil,
            state: supervisor.engine?.status.state ?? .stopped,
            reloads: metrics.reloads,
            lights: lights.status,
            analysisHop: metrics.engine.analysisHop.snapshot,
            audioToFrame: metrics.engine.audioToFrame.snapshot,
            controlClients: counts.clients,
            subscribers: ViewerCounts(viewers: counts.subscribers, droppedFrames: counts.droppedFrames),
            web: web
        ).text
    }

    /// A user's play/pause/toggle/stop; false when no input is open to apply it to.
    public func send(_ command: UserCommand) -> Bool {
        guard let engine = supervisor.engine else { return false }
        engine.send(command)
        return true
    }

    func publishScene(_ configuration: Configuration) {
        let event = ShowSceneEvent.encode(Scene.Style(configuration))
        sceneOutlet.withLock { $0 }?.call(event)
    }

    /// Sends `STATUS=` when its line changes (and tells MQTT of every change). Pushed, not polled: it sleeps until a part of the daemon announces a
    /// change (`changes`), so a stopped, silent daemon runs nothing here. Start-up's first states, a few
    /// milliseconds apart, go out as they come; a longer burst of changes (clients connecting by the hundred) is
    /// held to `statusLines`' rate, each line then saying what holds after the wait.
    private func reportStatus(changes: [Announcer]) async {
        let (rings, bell) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        // MQTT hears the same changes: an announcer has one listener, and this is it.
        for announcer in changes {
            announcer.listen { [mqtt] in
                bell.yield()
                mqtt?.statusChanged()
            }
        }
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
    func notify(_ send: () throws -> Void) {
        do {
            try send()
        } catch {
            logger.warning("sd_notify: \(error)")
        }
    }
}
