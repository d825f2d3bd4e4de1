import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
public import LightShowControl
public import Logging
import NIOCore
import NIOPosix
import Synchronization

/// The web server of the `lightshow-web` process: the page, the REST mirror of the control commands, the frames
/// WebSocket and `/metrics`, on one event-loop thread of its own.
public final class WebServer: Sendable {
    /// What the server serves: the show as the daemon gives it.
    public struct Routes: Sendable {
        /// Carries out `/api/…` commands: the control socket's handler, or its forwarder to the daemon.
        public var handler: any ControlCommandHandler
        /// The scene and frame events `/api/frames` viewers get.
        public var events: ShowEventBoard
        /// The Prometheus text for `GET /metrics`, given the server's own counts; nil when it can't be had now.
        public var metrics: @Sendable (WebServerCounts) async -> String?
        /// Where `/api/frames` viewers are counted.
        public var viewers: ViewerTally

        public init(
            handler: any ControlCommandHandler, events: ShowEventBoard,
            metrics: @escaping @Sendable (WebServerCounts) async -> String?, viewers: ViewerTally = ViewerTally()
        ) {
            self.handler = handler
            self.events = events
            self.metrics = metrics
            self.viewers = viewers
        }
    }

    /// Where and how to listen.
    public struct Options: Sendable, Equatable {
        public var host: String
        /// 0 picks a free port.
        public var port: Int
        /// Names `Host` may carry besides loopback's and the listen address.
        public var extraHosts: [String]
        /// The token the API, the WebSocket and `/metrics` require; nil for none.
        public var token: String?
        public var limits: WebLimits

        public init(host: String, port: Int, extraHosts: [String] = [], token: String? = nil, limits: WebLimits = WebLimits()) {
            self.host = host
            self.port = port
            self.extraHosts = extraHosts
            self.token = token
            self.limits = limits
        }
    }

    public let options: Options
    let routes: Routes
    let logger: Logger
    let connections: ConnectionCounter
    /// Requests refused, for `/metrics` and the rate-limited log.
    let refusals: WebRefusals
    /// The request policy for the port actually bound (with port 0 it is known only once bound).
    let policy: PolicyBox
    private let running = Mutex<Running?>(nil)

    private struct Running {
        var group: MultiThreadedEventLoopGroup
        var task: Task<Void, Never>
        var port: Int
        var broadcaster: FrameBroadcaster
    }

    /// A server for `options`; call `start()` to bind.
    public init(options: Options, routes: Routes, logger: Logger = Logger(label: "lightshow.web")) {
        self.options = options
        self.routes = routes
        self.logger = logger
        connections = ConnectionCounter(limit: options.limits.maxConnections)
        refusals = WebRefusals(logger: logger)
        policy = PolicyBox(WebRequestPolicy(listenHost: options.host, port: options.port, extraHosts: options.extraHosts, token: options.token))
    }

    /// The port bound, once started.
    public var port: Int? { running.withLock { $0?.port } }

    /// Connections open now (page, API and viewers), and the viewers, for the metrics.
    public var counts: WebServerCounts {
        WebServerCounts(
            clients: connections.count, viewers: routes.viewers.viewers, droppedFrames: routes.viewers.droppedFrames, refusals: refusals.totals
        )
    }

    /// Binds and starts serving; returns the port bound. Throws when the address can't be bound.
    @discardableResult
    public func start() async throws -> Int {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let broadcaster = FrameBroadcaster(
            events: routes.events, loop: group.next(), tally: routes.viewers, stallSeconds: options.limits.requestTimeoutSeconds
        )
        let (bound, reporter) = AsyncStream.makeStream(of: Result<Int, any Error>.self, bufferingPolicy: .bufferingNewest(1))
        let application = Application(
            responder: WebResponder(policy: policy, routes: routes, maxBodyBytes: options.limits.maxBodyBytes, refusals: refusals) { [self] in counts },
            server: serverBuilder(broadcaster),
            configuration: ApplicationConfiguration(address: .hostname(options.host, port: options.port), serverName: nil),
            onServerRunning: { [options, policy] channel in
                let port = channel.localAddress?.port ?? options.port
                policy.set(WebRequestPolicy(listenHost: options.host, port: port, extraHosts: options.extraHosts, token: options.token))
                reporter.yield(.success(port))
            },
            eventLoopGroupProvider: .shared(group),
            // Hummingbird's own lines would name every connection the gate closed ("Error handling upgrade
            // result"): one per refused request. Refusals are logged by `refusals`, at most once a minute a kind.
            logger: Self.quiet(logger)
        )
        let task = Task {
            do {
                try await application.run()
                reporter.yield(.failure(WebServerError.stoppedBeforeListening))
            } catch {
                reporter.yield(.failure(error))
            }
        }
        var outcome: Result<Int, any Error> = .failure(WebServerError.stoppedBeforeListening)
        for await first in bound {
            outcome = first
            break
        }
        switch outcome {
        case .success(let port):
            broadcaster.start()
            running.withLock { $0 = Running(group: group, task: task, port: port, broadcaster: broadcaster) }
            return port
        case .failure(let error):
            task.cancel()
            await task.value
            try? await group.shutdownGracefully()
            throw error
        }
    }

    /// Stops serving, closes every connection and ends the event-loop thread.
    public func stop() async {
        guard let current = running.withLock({ $0.take() }) else { return }
        current.broadcaster.stop()
        current.task.cancel()
        await current.task.value
        try? await current.group.shutdownGracefully()
    }

    /// `logger` for the HTTP library: only what is critical.
    static func quiet(_ logger: Logger) -> Logger {
        var quiet = logger
        quiet.logLevel = .critical
        return quiet
    }

    private func serverBuilder(_ broadcaster: FrameBroadcaster) -> HTTPServerBuilder {
        let limits = options.limits
        let viewers = routes.viewers
        let configuration = HTTP1WebSocketUpgradeChannel.Configuration(
            http1: HTTP1Channel.Configuration(
                httpDecoderConfiguration: .init(maxHeaderFieldSize: limits.maxHeaderBytes, maxHeaderListSize: limits.maxHeaderBytes, maxHeaderFieldCount: 100)
            ),
            // No extensions (no compression): FrameBroadcaster writes ready-made frames past them.
            ws: WebSocketServerConfiguration(maxFrameSize: 4096, autoPing: .enabled(timePeriod: .seconds(30)))
        )
        let decide: @Sendable (HTTPTypes.HTTPRequest) -> WebRoute? = { [self] head in
            let request = WebRequestPolicy.Request(
                method: head.method.rawValue, target: head.path ?? "/", host: head.authority,
                origin: head.headerFields[.origin], authorization: head.headerFields[.authorization],
                upgradesToWebSocket: true
            )
            return try? policy.current.decide(request).get()
        }
        let makeGate: @Sendable () -> RequestGate = { [self] in
            RequestGate(policy: policy.current, limits: limits, connections: connections, refusals: refusals)
        }
        return HTTPServerBuilder { responder in
            GuardedWebChannel(
                inner: HTTP1WebSocketUpgradeChannel(responder: responder, configuration: configuration) { head, channel, _ in
                    guard case .frames(let fps) = decide(head) else { return .dontUpgrade }
                    let viewer = FrameViewer(broadcaster: broadcaster, framesPerSecond: fps, tally: viewers, channel: channel)
                    return .upgrade([:]) { inbound, _, _ in try await viewer.serve(inbound: inbound) }
                },
                makeGate: makeGate
            )
        }
    }
}

/// Why the server did not start.
public enum WebServerError: Error, CustomStringConvertible {
    case stoppedBeforeListening

    public var description: String {
        switch self {
        case .stoppedBeforeListening: "the web server stopped before it listened"
        }
    }
}

/// The request policy, replaced once the port is bound.
final class PolicyBox: Sendable {
    private let policy: Mutex<WebRequestPolicy>

    init(_ policy: WebRequestPolicy) {
        self.policy = Mutex(policy)
    }

    var current: WebRequestPolicy { policy.withLock { $0 } }

    func set(_ new: WebRequestPolicy) {
        policy.withLock { $0 = new }
    }
}
