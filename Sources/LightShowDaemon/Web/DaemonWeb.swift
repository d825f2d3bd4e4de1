import LightShowControl
import LightShowCore
import LightShowSystem
import Logging
import Synchronization

/// The daemon's web server (`[web]`): a `lightshow-web` process started with the daemon when `listen` is set,
/// replaced on a reload that changes `[web]`, and started again if it dies. A new address that can't be bound leaves
/// the running server serving, and the reload says why.
final class DaemonWeb: Sendable {
    private let logger: Logger
    /// The control socket the server reaches the show through.
    private let socketPath: String
    /// The process running now, the settings it was made from, and how many have been started (so a late report
    /// of a replaced process's death restarts nothing).
    private let current = Mutex<(process: WebServerProcess, settings: WebSettings, generation: UInt64)?>(nil)
    private let generations = Atomic<UInt64>(0)
    /// Pauses before restarts, and when the last restart came (monotonic ns): a server that keeps dying soon after
    /// it starts waits longer each time.
    private let restarts = Mutex((backoff: ReopenBackoff(initial: 1, maximum: 30), last: UInt64(0)))
    /// A server that lived this long since the last restart starts the pauses afresh.
    static let settledNanoseconds: UInt64 = 60_000_000_000

    init(socketPath: String, logger: Logger) {
        self.socketPath = socketPath
        self.logger = logger
    }

    /// The port served, or nil when off.
    var port: Int? { current.withLock { $0?.process.port } }

    /// The server's process, or nil when off.
    var pid: Int32? { current.withLock { $0?.process.pid } }

    /// Serves `settings` in place of what runs now. Throws (naming the key) when the token file can't be read or the
    /// address can't be bound; what ran before then keeps running.
    func apply(_ settings: WebSettings) async throws(LightShowError) {
        let running = current.withLock { $0 }
        guard running?.settings != settings else { return }
        guard settings.isEnabled, let (host, port) = settings.address else {
            current.withLock { $0 = nil }
            await running?.process.stop()
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
        let processSettings = WebProcessSettings(
            socketPath: socketPath, host: host, port: port, extraHosts: settings.hosts, token: token, limits: limits
        )
        // The same address can't be bound twice: the old server lets go of it first, and comes back if the new one
        // still can't have it.
        let sameAddress = running.map { $0.settings.address.map { $0 == (host, port) } ?? false } ?? false
        if sameAddress {
            current.withLock { $0 = nil }
            await running?.process.stop()
        }
        let started: (WebServerProcess, UInt64)
        do {
            started = try await start(processSettings)
        } catch {
            let message = "web.listen: cannot listen on \(settings.listen): \(error.message)"
            if let running, sameAddress {
                _ = try? await self.apply(running.settings)
            }
            if let running {
                throw LightShowError("\(message); still serving \(running.settings.listen)", exitStatus: .ioError)
            }
            throw LightShowError(message, exitStatus: .ioError)
        }
        current.withLock { $0 = (started.0, settings, started.1) }
        if !sameAddress { await running?.process.stop() }
        logger.info("web: \(Self.url(host: host, port: started.0.port)) (lightshow-web, pid \(started.0.pid))")
    }

    static func url(host: String, port: Int) -> String {
        "http://\(host.contains(":") ? "[\(host)]" : host):\(port)/"
    }

    /// Stops the server, if any.
    func stop() async {
        let running = current.withLock { $0.take() }
        await running?.process.stop()
    }

    private func start(_ settings: WebProcessSettings) async throws(LightShowError) -> (WebServerProcess, UInt64) {
        let generation = generations.add(1, ordering: .relaxed).newValue
        let process = try await WebServerProcess.start(executable: try WebServerProcess.executable(), settings: settings) { [self] ending in
            restart(generation: generation, settings: settings, after: ending)
        }
        return (process, generation)
    }

    /// A server that died by itself is started again on the same settings and the port it had (port 0 picked one),
    /// after a pause that grows while it keeps failing to start or dying within a minute (1 s, doubling to 30 s),
    /// unless it was replaced or stopped meanwhile.
    private func restart(generation: UInt64, settings: WebProcessSettings, after ending: ChildProcess.Ending) {
        var settings = settings
        if let port = current.withLock({ $0?.generation == generation ? $0?.process.port : nil }) { settings.port = port }
        logger.error("web: the web server (lightshow-web) stopped: \(WebServerProcess.describe(ending)); starting it again")
        var pause = nextRestartPause()
        Task { [self] in
            while true {
                try? await Task.sleep(for: .seconds(pause))
                guard let entry = current.withLock({ $0 }), entry.generation == generation else { return }
                do throws(LightShowError) {
                    let (process, next) = try await start(settings)
                    let kept = current.withLock { current -> Bool in
                        guard current?.generation == generation, let entry = current else { return false }
                        current = (process, entry.settings, next)
                        return true
                    }
                    if !kept {
                        await process.stop()
                        return
                    }
                    logger.notice("web: \(Self.url(host: settings.host, port: process.port)) again (lightshow-web, pid \(process.pid))")
                    return
                } catch {
                    pause = nextRestartPause()
                    logger.error("web: \(error.message); trying again in \(pause) s")
                }
            }
        }
    }

    private func nextRestartPause() -> Double {
        let now = MonotonicClock.now()
        return restarts.withLock { restarts in
            if now &- restarts.last >= Self.settledNanoseconds { restarts.backoff.reset() }
            restarts.last = now
            return restarts.backoff.next()
        }
    }
}
