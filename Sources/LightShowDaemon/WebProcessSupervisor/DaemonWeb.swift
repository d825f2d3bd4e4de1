import LightShowControl
import LightShowCore
import LightShowSystem
import Logging
import Synchronization

/// The daemon's web server (`[web]`): a `lightshow-web` process started with the daemon when `listen` is set,
/// replaced on a reload that changes `[web]`, and started again if it dies. A new address that can't be bound leaves
/// the running server serving, and the reload says why.
///
/// Whoever takes the running process out of `slot` is the one who stops it (or puts it back): a reload racing the
/// daemon's stop never stops a process twice, and once stopped, nothing a reload starts afterwards is kept.
final class DaemonWeb: Sendable {
    /// A process running, the settings it was made from, and how many have been started (so a late report of a
    /// replaced process's death restarts nothing).
    private typealias Entry = (process: WebServerProcess, settings: WebSettings, generation: UInt64)

    private struct Slot {
        var entry: Entry?
        /// Set by `stop`: the daemon is going.
        var stopped = false
        /// Why the server is not serving, while it is started again after it died.
        var problem: String?
    }

    private let logger: Logger
    /// The control socket the server reaches the show through.
    private let socketPath: String
    private let slot = Mutex(Slot())
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
    var port: Int? { slot.withLock { $0.entry?.process.port } }

    /// The server's process, or nil when off.
    var pid: Int32? { slot.withLock { $0.entry?.process.pid } }

    /// For `ctl status`: `off`, `serving` with its address and pid, or `restarting` and why.
    var status: JSONValue {
        slot.withLock { slot in
            guard let entry = slot.entry else { return ["state": "off"] }
            var status: JSONObject = [
                "state": .string(slot.problem == nil ? "serving" : "restarting"),
                "url": .string(Self.url(host: entry.settings.address?.host ?? "", port: entry.process.port)),
                "pid": .number(Double(entry.process.pid)),
            ]
            if let problem = slot.problem { status["error"] = .string(problem) }
            return .object(status)
        }
    }

    /// Serves `settings` in place of what runs now. Throws (naming the key) when the token file can't be read or the
    /// address can't be bound; what ran before then keeps running.
    func apply(_ settings: WebSettings) async throws(LightShowError) {
        enum Taken { case unchanged, took(Entry?) }
        let taken = slot.withLock { slot -> Taken in
            guard !slot.stopped, slot.entry?.settings != settings else { return .unchanged }
            slot.problem = nil
            return .took(slot.entry.take())
        }
        guard case .took(let running) = taken else { return }
        guard settings.isEnabled, let (host, port) = settings.address else {
            await running?.process.stop()
            if running != nil { logger.info("web: stopped") }
            return
        }
        var token: String? = settings.token.isEmpty ? nil : settings.token
        if !settings.tokenFile.isEmpty {
            do {
                // A file read blocks (a slow disk, a FIFO): on a thread of its own.
                token = try await DedicatedThread.run(name: "ls-web-token") { [path = settings.tokenFile] () throws(LightShowError) in
                    try SecretFile.firstLine(of: path, key: "web.token_file", what: "the token")
                }
            } catch {
                await keep(running)
                throw error
            }
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
        if sameAddress { await running?.process.stop() }
        let started: (WebServerProcess, UInt64)
        do {
            started = try await start(processSettings)
        } catch {
            let message = "web.listen: cannot listen on \(settings.listen): \(error.message)"
            if let running, sameAddress {
                _ = try? await self.apply(running.settings)
            } else {
                await keep(running)
            }
            if let running {
                throw LightShowError("\(message); still serving \(running.settings.listen)", exitStatus: .ioError)
            }
            throw LightShowError(message, exitStatus: .ioError)
        }
        let kept = await keep((started.0, settings, started.1))
        if !sameAddress { await running?.process.stop() }
        if kept { logger.info("web: \(Self.url(host: host, port: started.0.port)) (lightshow-web, pid \(started.0.pid))") }
    }

    /// Puts `entry` in the slot that its taker emptied, unless the daemon stopped meanwhile: then it is stopped.
    @discardableResult
    private func keep(_ entry: Entry?) async -> Bool {
        guard let entry else { return true }
        let kept = slot.withLock { slot -> Bool in
            guard !slot.stopped else { return false }
            slot.entry = entry
            return true
        }
        if !kept { await entry.process.stop() }
        return kept
    }

    static func url(host: String, port: Int) -> String {
        "http://\(host.contains(":") ? "[\(host)]" : host):\(port)/"
    }

    /// Stops the server, if any, for good: a reload still under way keeps nothing it starts.
    func stop() async {
        let running = slot.withLock { slot in
            slot.stopped = true
            return slot.entry.take()
        }
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
        let problem = "the web server (lightshow-web) stopped: \(WebServerProcess.describe(ending))"
        let port = slot.withLock { slot -> Int? in
            guard let entry = slot.entry, entry.generation == generation else { return nil }
            slot.problem = problem
            return entry.process.port
        }
        if let port { settings.port = port }
        logger.error("web: \(problem); starting it again")
        var pause = nextRestartPause()
        Task { [self] in
            while true {
                try? await Task.sleep(for: .seconds(pause))
                guard slot.withLock({ $0.entry?.generation == generation }) else { return }
                do throws(LightShowError) {
                    let (process, next) = try await start(settings)
                    let kept = slot.withLock { slot -> Bool in
                        guard let entry = slot.entry, entry.generation == generation else { return false }
                        slot.entry = (process, entry.settings, next)
                        slot.problem = nil
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
