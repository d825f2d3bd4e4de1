public import LightShowCore
import LightShowSystem
public import Logging
import Synchronization

/// A connection to an MQTT broker that the rest of the program never waits on. A thread of its own polls the
/// broker's socket and a wake-up for outgoing messages, with a deadline for libmosquitto's keep-alive work, and
/// reconnects with backoff (one log line when the connection goes, one when it comes back). Outgoing messages go
/// into a bounded store of the newest payload per topic, which is sent again in full after every reconnect.
public final class MQTTConnection: Sendable {
    public struct Options: Equatable, Sendable {
        public var host: String
        public var port: Int
        public var clientID: String
        public var username = ""
        public var password: String?
        public var tls = false
        public var caFile = ""
        public var keepAliveSeconds = 30
        /// Published by the broker when the connection dies without a goodbye (Home Assistant's availability).
        public var will: MQTTMessage?
        /// Subscribed again on every connection.
        public var subscriptions: [String] = []
        /// Larger incoming payloads are logged once and dropped.
        public var maximumPayloadBytes = 4096
        /// Distinct outgoing topics kept at most.
        public var maximumTopics = 128

        public init(host: String, port: Int, clientID: String) {
            self.host = host
            self.port = port
            self.clientID = clientID
        }

        /// `host:port` for messages.
        public var broker: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
    }

    struct Outgoing: Sendable {
        var payload: [UInt8]
        var retain: Bool
    }

    struct Shared: Sendable {
        var outgoing: LatestValueStore<Outgoing>
        var state: MQTTConnectionState = .connecting
        var stopping = false
        var finalMessages: [MQTTMessage] = []
    }

    let options: Options
    let logger: Logger
    let received: @Sendable (MQTTMessage) -> Void
    let connected: @Sendable () -> Void
    let shared: Mutex<Shared>
    let wake: WakeSignal
    /// Signalled by the thread as it ends.
    let finished: WakeSignal
    /// Told when `state` changes, on the connection's thread.
    public let stateChanges = Announcer()

    /// `received` gets each message on a subscribed topic, `connected` each accepted connection; both run on the
    /// connection's thread and must return quickly (hand the work on).
    public init(
        options: Options, logger: Logger,
        received: @escaping @Sendable (MQTTMessage) -> Void, connected: @escaping @Sendable () -> Void = {}
    ) throws(LightShowError) {
        self.options = options
        self.logger = logger
        self.received = received
        self.connected = connected
        shared = Mutex(Shared(outgoing: LatestValueStore(capacity: options.maximumTopics)))
        do throws(SystemCallError) {
            wake = try WakeSignal()
            finished = try WakeSignal()
        } catch {
            throw LightShowError("MQTT: \(error)", exitStatus: .ioError)
        }
    }

    /// Loads libmosquitto and starts the thread. Throws when the library is missing or the thread can't start.
    public func start() throws(LightShowError) {
        let library: MosquittoLibrary
        do {
            library = try MosquittoLibrary.load()
        } catch {
            update(.failed(error.message))
            throw error
        }
        try DedicatedThread.start(name: "ls-mqtt") { [self] in
            MQTTLoop(connection: self, library: library).run()
            finished.signal()
        }
    }

    public var state: MQTTConnectionState { shared.withLock { $0.state } }

    /// Sends `message` as soon as the connection allows, replacing any unsent payload for its topic; a retained one
    /// is also sent again after a reconnect. Never waits.
    public func publish(_ message: MQTTMessage) {
        let stored = shared.withLock { shared in
            shared.outgoing.set(message.topic, Outgoing(payload: message.payload, retain: message.retain))
        }
        if stored {
            wake.signal()
        } else {
            logger.warning("MQTT: more than \(options.maximumTopics) topics; not publishing \(SafeText.sanitized(message.topic, limit: 80))")
        }
    }

    /// Sends every stored message again (Home Assistant came back and wants the configs and states).
    public func republishAll() {
        shared.withLock { $0.outgoing.markAllPending() }
        wake.signal()
    }

    /// Sends `finalMessages` (the retained `offline`), disconnects cleanly and ends the thread; waits up to
    /// `timeout` for that, off the cooperative pool.
    public func stop(finalMessages: [MQTTMessage] = [], timeout: Duration = .seconds(2)) async {
        shared.withLock { shared in
            shared.stopping = true
            shared.finalMessages = finalMessages
        }
        wake.signal()
        _ = try? await DedicatedThread.run(name: "ls-mqtt-stop") { [finished] in finished.wait(for: timeout) }
    }

    func update(_ state: MQTTConnectionState) {
        let changed = shared.withLock { shared in
            defer { shared.state = state }
            return shared.state != state
        }
        if changed { stateChanges.announce() }
    }
}
