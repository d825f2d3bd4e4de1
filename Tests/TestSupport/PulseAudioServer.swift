import Foundation

/// A private PulseAudio server with a null sink named `lights` whose monitor is the default source,
/// started by a test on its own socket and stopped (killed) by it.
public final class PulseAudioServer: @unchecked Sendable {
    public let directory: TemporaryDirectory
    public var socketPath: String { directory.file("pa/native") }
    /// Environment for clients: the private server, and no autospawn of another one.
    public var clientEnvironment: [String: String] {
        ["PULSE_SERVER": "unix:\(socketPath)", "PULSE_CLIENTCONFIG": directory.file("client.conf")]
    }
    private var process: Process?

    public init() throws {
        directory = try TemporaryDirectory("lightshow-pulse")
        try FileManager.default.createDirectory(atPath: directory.file("pa"), withIntermediateDirectories: true)
        try directory.write("client.conf", Data("autospawn = no\n".utf8))
        try directory.write("test.pa", Data("""
            load-module module-native-protocol-unix auth-anonymous=1 socket=\(socketPath)
            load-module module-null-sink sink_name=lights rate=48000 channels=2
            set-default-source lights.monitor
            set-default-sink lights

            """.utf8))
    }

    /// Starts the server and waits until it answers; throws if it doesn't within `seconds`.
    public func start(within seconds: Double = 20) async throws {
        try? FileManager.default.removeItem(atPath: socketPath)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["pulseaudio", "-n", "-F", directory.file("test.pa"), "--daemonize=no",
                             "--exit-idle-time=-1", "--use-pid-file=no", "--disallow-exit", "--log-target=stderr"]
        var env = ProcessInfo.processInfo.environment
        env["HOME"] = directory.path
        env["XDG_RUNTIME_DIR"] = directory.file("pa")
        env["XDG_CONFIG_HOME"] = directory.file("config")
        process.environment = env
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        self.process = process
        let answered = await ExternalTool.waitUntil(seconds: seconds) {
            (try? ExternalTool.run("pactl", ["info"], environment: clientEnvironment)) != nil
        }
        guard answered else {
            stop()
            throw ExternalTool.Failure(description: "pulseaudio did not answer on \(socketPath) within \(seconds) s")
        }
    }

    /// Kills the server at once (as a crash would) and waits for it to exit.
    public func kill() {
        guard let process, process.isRunning else { return }
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        self.process = nil
    }

    /// Stops the server if it is running.
    public func stop() {
        guard let process, process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
        self.process = nil
    }

    /// Plays `path` into the null sink and returns at once; the player stops by itself at the end of the file.
    @discardableResult
    public func play(_ path: String) throws -> Process {
        let player = Process()
        player.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        player.arguments = ["paplay", path]
        var env = ProcessInfo.processInfo.environment
        for (key, value) in clientEnvironment { env[key] = value }
        player.environment = env
        player.standardOutput = FileHandle.nullDevice
        player.standardError = FileHandle.nullDevice
        try player.run()
        return player
    }

    deinit { stop() }
}
