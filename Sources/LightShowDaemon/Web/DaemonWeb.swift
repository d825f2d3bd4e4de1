import LightShowControl
import LightShowCore
import LightShowSystem
import LightShowWeb
import Logging
import Synchronization

/// The daemon's web server (`[web]`): started with the daemon when `listen` is set, and replaced on a reload that
/// changes `[web]`. A new address that can't be bound leaves the running server serving, and the reload says why.
final class DaemonWeb: Sendable {
    private let logger: Logger
    /// The server running now and the settings it was made from.
    private let current = Mutex<(server: WebServer, settings: WebSettings)?>(nil)

    init(logger: Logger) {
        self.logger = logger
    }

    /// Connections open now (0 when off).
    var connectionCount: Int { current.withLock { $0?.server.connectionCount } ?? 0 }

    /// The port served, or nil when off.
    var port: Int? { current.withLock { $0?.server.port } }

    /// Serves `settings` in place of what runs now. Throws (naming the key) when the token file can't be read or the
    /// address can't be bound; what ran before then keeps running.
    func apply(_ settings: WebSettings, routes: WebServer.Routes) async throws(LightShowError) {
        let running = current.withLock { $0 }
        guard running?.settings != settings else { return }
        guard settings.isEnabled, let (host, port) = settings.address else {
            current.withLock { $0 = nil }
            await running?.server.stop()
            if running != nil { logger.info("web: stopped") }
            return
        }
        var token: String? = settings.token.isEmpty ? nil : settings.token
        if !settings.tokenFile.isEmpty {
            token = try SecretFile.firstLine(of: settings.tokenFile, key: "web.token_file", what: "the token")
        }
        let limits = WebLimits(
            maxConnections: settings.maxConnections, idleTimeoutSeconds: settings.idleTimeoutSeconds,
            requestTimeoutSeconds: settings.requestTimeoutSeconds, maxBodyBytes: settings.maxBodyBytes
        )
        let server = WebServer(
            options: .init(host: host, port: port, extraHosts: settings.hosts, token: token, limits: limits),
            routes: routes, logger: logger
        )
        // The same address can't be bound twice: the old server lets go of it first, and comes back if the new one
        // still can't have it.
        let sameAddress = running.map { $0.settings.address.map { $0 == (host, port) } ?? false } ?? false
        if sameAddress { await running?.server.stop() }
        do {
            try await server.start()
        } catch {
            let message = "web.listen: cannot listen on \(settings.listen): \(error)"
            if let running, sameAddress {
                _ = try? await running.server.start()
            }
            if let running {
                throw LightShowError("\(message); still serving \(running.settings.listen)", exitStatus: .ioError)
            }
            throw LightShowError(message, exitStatus: .ioError)
        }
        current.withLock { $0 = (server, settings) }
        if !sameAddress { await running?.server.stop() }
        logger.info("web: http://\(host.contains(":") ? "[\(host)]" : host):\(server.port ?? port)/")
    }

    /// Stops the server, if any.
    func stop() async {
        let running = current.withLock { $0.take() }
        await running?.server.stop()
    }
}
