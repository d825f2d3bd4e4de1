import LightShowControl
import LightShowCore
import LightShowEngine
import LightShowMQTT
import LightShowSystem
import Logging
import Synchronization

/// The daemon on MQTT, for Home Assistant: discovery configs, state pushed when the daemon announces a change, band
/// levels at most twice a second, and commands run through the daemon's one command handler (the one `lightshow
/// ctl` talks to). Incoming commands wait in a latest-per-topic store, so a flood keeps only the newest of each.
final class DaemonMQTT: Sendable {
    let connection: MQTTConnection
    let topics: HomeAssistantTopics
    private let device: HomeAssistantDevice
    private let logger: Logger
    /// Commands received and not yet run: the newest payload per topic.
    private let inbox = Locked(LatestValueStore<[UInt8]>(capacity: 16))
    private let commandBell: AsyncStream<Void>.Continuation
    private let commandRings: AsyncStream<Void>
    private let statusBell: AsyncStream<Void>.Continuation
    private let statusRings: AsyncStream<Void>
    private let republishBell: AsyncStream<Void>.Continuation
    private let republishRings: AsyncStream<Void>
    /// Monotonic nanoseconds of the last level sensors sent.
    private let lastLevels = Mutex<UInt64>(0)
    static let levelInterval: UInt64 = 500_000_000
    /// Shortest time between two republishes for Home Assistant's `online`.
    static let republishInterval: UInt64 = 1_000_000_000

    /// Nil when `[mqtt] broker` is unset. Reads the password file; throws (exit 78) when it can't.
    static func make(settings: MQTTSettings, version: String, logger: Logger) throws(LightShowError) -> DaemonMQTT? {
        guard settings.isEnabled, let (host, port) = MQTTSettings.hostAndPort(settings.broker) else { return nil }
        let machine = HostName.current()
        let topics = HomeAssistantTopics(
            base: settings.resolvedBaseTopic(host: HomeAssistantDevice.objectIDCharacters(machine)),
            discoveryPrefix: settings.discoveryPrefix
        )
        var options = MQTTConnection.Options(host: host, port: port, clientID: settings.resolvedClientID(host: HomeAssistantDevice.objectIDCharacters(machine)))
        options.username = settings.username
        options.password = try password(settings)
        options.tls = settings.tls
        options.caFile = settings.caFile
        options.will = MQTTMessage(topic: topics.availability, text: HomeAssistantState.offline, retain: true)
        options.subscriptions = topics.subscriptions
        return try DaemonMQTT(options: options, topics: topics, device: HomeAssistantDevice(host: machine, version: version), logger: logger)
    }

    private static func password(_ settings: MQTTSettings) throws(LightShowError) -> String? {
        guard !settings.passwordFile.isEmpty else { return settings.password.isEmpty ? nil : settings.password }
        return try SecretFile.firstLine(of: settings.passwordFile, key: "mqtt.password_file", what: "the password")
    }

    private init(options: MQTTConnection.Options, topics: HomeAssistantTopics, device: HomeAssistantDevice, logger: Logger) throws(LightShowError) {
        self.topics = topics
        self.device = device
        self.logger = logger
        (commandRings, commandBell) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        (statusRings, statusBell) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        (republishRings, republishBell) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let inbox = inbox
        let bell = commandBell
        connection = try MQTTConnection(options: options, logger: logger, received: { message in
            let stored = inbox.withLock { $0.set(message.topic, message.payload) }
            if stored { bell.yield() }
        })
    }

    var state: MQTTConnectionState { connection.state }

    /// Something `ctl status` shows may have changed; the state goes out if Home Assistant's view of it did.
    func statusChanged() {
        statusBell.yield()
    }

    /// A frame's levels: sent when the last were sent half a second ago or more.
    func frame(_ levels: BandLevels) {
        let now = MonotonicClock.now()
        let due = lastLevels.withLock { last in
            guard now &- last >= Self.levelInterval else { return false }
            last = now
            return true
        }
        guard due else { return }
        for message in HomeAssistantState.levelMessages(levels, topics) { connection.publish(message) }
    }

    /// Connects, announces the entities, then runs commands and pushes states until cancelled; then says `offline`
    /// and disconnects. A broker that is away is retried in the background; the daemon never waits for it.
    func run(handler: some ControlCommandHandler, inputs: [String], status: @escaping @Sendable () -> DaemonStatus) async {
        do {
            // Loading libmosquitto (dlopen reads it from disk) blocks: on a thread of its own.
            try await DedicatedThread.complete(name: "ls-mqtt-start") { [connection] in try connection.start() }
        } catch {
            logger.error("\((error as? LightShowError)?.message ?? "\(error)"); MQTT is off")
            return
        }
        connection.publish(MQTTMessage(topic: topics.availability, text: HomeAssistantState.online, retain: true))
        publish(HomeAssistantState(status()))
        let discovery = HomeAssistantDiscovery(topics: topics, device: device, inputs: inputs)
        for message in discovery.messages { connection.publish(message) }
        await withDiscardingTaskGroup { group in
            group.addTask { [self] in
                var last: HomeAssistantState?
                for await _ in statusRings {
                    let current = HomeAssistantState(status())
                    if current != last { publish(current) }
                    last = current
                }
            }
            group.addTask { [self] in
                var problems = ProblemFilter()
                for await _ in commandRings {
                    for (topic, payload) in inbox.withLock({ $0.drain() }) {
                        let message = MQTTMessage(topic: topic, payload: payload)
                        await run(message, HomeAssistantCommand.parse(message, topics: topics), handler: handler, status: status, problems: &problems)
                    }
                }
            }
            group.addTask { [self] in
                // Home Assistant restarting says `online` once; a flood of them is one republish a second at most
                // (rings while one waits out its second collapse into one more).
                for await _ in republishRings {
                    connection.republishAll()
                    try? await Task.sleep(nanoseconds: Self.republishInterval)
                }
            }
        }
        await connection.stop(finalMessages: [MQTTMessage(topic: topics.availability, text: HomeAssistantState.offline, retain: true)])
    }

    private func publish(_ state: HomeAssistantState) {
        for message in state.messages(topics) { connection.publish(message) }
    }

    /// One message: checked, then each of its commands through the handler. A bad message or a failed command is
    /// logged the first time on its topic and ignored; the state goes out again, so a select or switch Home
    /// Assistant moved on its own shows the daemon's choice again.
    private func run(
        _ message: MQTTMessage, _ parsed: Result<HomeAssistantCommand, HomeAssistantCommand.Invalid>, handler: some ControlCommandHandler,
        status: @Sendable () -> DaemonStatus, problems: inout ProblemFilter
    ) async {
        switch parsed {
        case .failure(let invalid):
            if problems.shouldReport(message.topic) { logger.warning("\(invalid.message); ignored") }
            publish(HomeAssistantState(status()))
        case .success(.homeAssistantOnline):
            republishBell.yield()
        case .success(.none):
            break
        case .success(.control(let requests)):
            for request in requests {
                if case .failure(let reason) = await handler.handle(request.command, arguments: request.arguments) {
                    if problems.shouldReport(message.topic) {
                        logger.warning("MQTT \(SafeText.sanitized(message.topic, limit: 120)): \(request.command.rawValue) failed: \(reason)")
                    }
                    publish(HomeAssistantState(status()))
                    return
                }
            }
            problems.clear(message.topic)
        }
    }
}

extension HomeAssistantState {
    /// What Home Assistant shows of `status`.
    init(_ status: DaemonStatus) {
        self.init(
            state: status.show?.state ?? .stopped, title: status.show?.title ?? "", input: status.input.description,
            brightness: status.brightness, color: status.bands.bass.color
        )
    }
}
