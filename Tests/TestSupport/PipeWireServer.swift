import Foundation

/// pipewire + wireplumber + pipewire-pulse on a private `XDG_RUNTIME_DIR` and a private session bus (wireplumber
/// needs one), for tests of `--input pulse` on a PipeWire desktop. Everything it started is killed when released.
public final class PipeWireServer: @unchecked Sendable {
    public let directory: TemporaryDirectory
    public let bus: SessionBus
    private let lock = NSLock()
    private var processes: [String: Process] = [:]
    private var helpers: [Process] = []

    public var runtimeDirectory: String { directory.file("run") }
    /// Environment for clients: the private pipewire-pulse socket.
    public var clientEnvironment: [String: String] {
        ["PULSE_SERVER": "unix:\(runtimeDirectory)/pulse/native", "PULSE_CLIENTCONFIG": directory.file("client.conf")]
    }
    private var daemonEnvironment: [String: String] {
        bus.environment.merging(["XDG_RUNTIME_DIR": runtimeDirectory, "HOME": directory.path]) { $1 }
    }

    public init() throws {
        directory = try TemporaryDirectory("lightshow-pipewire")
        try FileManager.default.createDirectory(atPath: directory.file("run"), withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        try directory.write("client.conf", Data("autospawn = no\n".utf8))
        // A longer graph cycle than the desktop default (1024 frames): on 2 busy cores the timer-driven null sinks
        // otherwise miss cycles now and then, and each miss is a click in the monitor (parec records it too).
        let conf = directory.file(".config/pipewire/pipewire.conf.d")
        try FileManager.default.createDirectory(atPath: conf, withIntermediateDirectories: true)
        try directory.write(".config/pipewire/pipewire.conf.d/quantum.conf", Data("""
            context.properties = { default.clock.quantum = 4096 default.clock.min-quantum = 4096 }

            """.utf8))
        bus = try SessionBus()
    }

    /// Starts the three daemons and waits until pipewire-pulse answers.
    public func start() async throws {
        try launch("pipewire")
        try await waitFor("pipewire's socket", timeout: 30) {
            FileManager.default.fileExists(atPath: "\(self.runtimeDirectory)/pipewire-0")
        }
        try launch("wireplumber")
        try await startPulse()
    }

    /// Starts pipewire-pulse (again) and waits until it answers.
    public func startPulse() async throws {
        try launch("pipewire-pulse")
        let environment = clientEnvironment
        let answered = await Wait.until(within: 10) { () async -> Bool in
            (try? await ExternalTool.runDetached("pactl", ["info"], environment: environment)) != nil
        }
        guard answered else { throw ExternalTool.Failure(description: "pipewire-pulse did not answer") }
    }

    /// Kills pipewire-pulse as a crash would (the modules loaded through it go with it).
    public func killPulse() {
        guard let process = lock.withLock({ processes.removeValue(forKey: "pipewire-pulse") }) else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    @discardableResult
    public func pactl(_ arguments: String...) throws -> String {
        try ExternalTool.run("pactl", arguments, environment: clientEnvironment)
    }

    /// Runs `tool arguments…` in the background (a player, a feeder) until the server is released.
    public func background(_ tool: String, _ arguments: [String], standardOutput: FileHandle? = nil) throws {
        let process = try spawn(tool, arguments, environment: clientEnvironment, standardOutput: standardOutput)
        lock.withLock { helpers.append(process) }
    }

    private func launch(_ daemon: String) throws {
        let process = try spawn(daemon, [], environment: daemonEnvironment, standardOutput: nil)
        lock.withLock { processes[daemon] = process }
    }

    private func spawn(_ tool: String, _ arguments: [String], environment: [String: String],
                       standardOutput: FileHandle?) throws -> Process {
        try Launch.start([tool] + arguments, environment: environment, standardOutput: standardOutput)
    }

    deinit {
        let all = lock.withLock { helpers + Array(processes.values) }
        for process in all where process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}
