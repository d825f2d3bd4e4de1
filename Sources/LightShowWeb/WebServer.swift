import Hummingbird
import HummingbirdCore
public import Logging
import NIOCore
import NIOPosix
import Synchronization

/// The daemon's HTTP server: the page, the API and `/metrics`, on one event-loop thread of its own. Nothing of NIO
/// exists until `start`, so a daemon without `[web]` pays for none of it.
public final class WebServer: Sendable {
    /// What the server serves, given by the daemon.
    public struct Routes: Sendable {
        /// The Prometheus text for `GET /metrics`.
        public var metrics: @Sendable () -> String

        public init(metrics: @escaping @Sendable () -> String) {
            self.metrics = metrics
        }
    }

    public let host: String
    let requestedPort: Int
    let routes: Routes
    let logger: Logger
    private let running = Mutex<Running?>(nil)

    private struct Running {
        var group: MultiThreadedEventLoopGroup
        var task: Task<Void, Never>
        var port: Int
    }

    /// A server for `host:port` (port 0 picks a free one); call `start()` to bind.
    public init(host: String, port: Int, routes: Routes, logger: Logger = Logger(label: "lightshow.web")) {
        self.host = host
        requestedPort = port
        self.routes = routes
        self.logger = logger
    }

    /// The port bound, once started.
    public var port: Int? { running.withLock { $0?.port } }

    /// Binds and starts serving; returns the port bound. Throws when the address can't be bound.
    @discardableResult
    public func start() async throws -> Int {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let (bound, reporter) = AsyncStream.makeStream(of: Result<Int, any Error>.self, bufferingPolicy: .bufferingNewest(1))
        let application = Application(
            responder: WebResponder(routes: routes),
            configuration: ApplicationConfiguration(address: .hostname(host, port: requestedPort), serverName: nil),
            onServerRunning: { channel in reporter.yield(.success(channel.localAddress?.port ?? 0)) },
            eventLoopGroupProvider: .shared(group),
            logger: logger
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
            running.withLock { $0 = Running(group: group, task: task, port: port) }
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
        current.task.cancel()
        await current.task.value
        try? await current.group.shutdownGracefully()
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
