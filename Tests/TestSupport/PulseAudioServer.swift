import Foundation

/// A private PulseAudio server with a null sink named `lights` whose monitor is the default source (or, with
/// `desktop()`, a desktop's layout), started by a test on its own socket and stopped (or killed) by it.
///
/// pulseaudio closes every inherited descriptor at start-up, which Foundation's `Process` takes for an exit
/// (it then blocks reaping a live process), so the server daemonizes and is found and signalled by its pid.
public final class PulseAudioServer: @unchecked Sendable {
    public let directory: TemporaryDirectory
    public var socketPath: String { directory.file("pa/native") }
    /// Environment for clients: the private server, and no autospawn of another one.
    public var clientEnvironment: [String: String] {
        ["PULSE_SERVER": "unix:\(socketPath)", "PULSE_CLIENTCONFIG": directory.file("client.conf")]
    }
    private var pid: pid_t?

    private static let lights = """
        load-module module-null-sink sink_name=lights rate=48000 channels=2
        set-default-source lights.monitor
        set-default-sink lights
        """

    /// `modules`: the server's script after its socket (default: the `lights` null sink as the default source).
    public init(modules: String? = nil) throws {
        directory = try TemporaryDirectory("lightshow-pulse")
        try FileManager.default.createDirectory(atPath: directory.file("pa"), withIntermediateDirectories: true)
        try directory.write("client.conf", Data("autospawn = no\n".utf8))
        try directory.write("test.pa", Data("""
            load-module module-native-protocol-unix auth-anonymous=1 socket=\(socketPath)
            \(modules ?? Self.lights)

            """.utf8))
    }

    /// A desktop as `--input pulse` meets it: null sinks `speakers` (the default, playing 1 kHz) and `headphones`
    /// (playing 2 kHz), and a 440 Hz sine source as the default source, the "microphone" that must not be recorded.
    /// `norewinds=1`: without it the first monitor data takes about 2 s. Note that PulseAudio moves the streams of
    /// the old default sink to the new one when the default changes.
    public static func desktop() throws -> PulseAudioServer {
        try PulseAudioServer(modules: """
            load-module module-null-sink sink_name=speakers rate=48000 channels=2 norewinds=1
            load-module module-null-sink sink_name=headphones rate=48000 channels=2 norewinds=1
            load-module module-sine-source source_name=mic frequency=440 rate=48000
            load-module module-sine sink=speakers frequency=1000
            load-module module-sine sink=headphones frequency=2000
            set-default-sink speakers
            set-default-source mic
            """)
    }

    /// Runs `pactl arguments…` against this server.
    @discardableResult
    public func pactl(_ arguments: String...) throws -> String {
        try ExternalTool.run("pactl", arguments, environment: clientEnvironment)
    }

    /// Starts the server and waits until it answers; throws if it doesn't within `seconds`.
    public func start(within seconds: Double = 20) async throws {
        try? FileManager.default.removeItem(atPath: socketPath)
        try await ExternalTool.runDetached("pulseaudio", [
            "-n", "-F", directory.file("test.pa"), "--daemonize=yes", "--exit-idle-time=-1", "--use-pid-file=no",
            "--disallow-exit", "--log-target=syslog",
        ], environment: [
            "HOME": directory.path, "XDG_RUNTIME_DIR": directory.file("pa"), "XDG_CONFIG_HOME": directory.file("config"),
        ])
        pid = Self.findServer(config: directory.file("test.pa"))
        let environment = clientEnvironment
        let answered = await Wait.until(within: seconds) { () async -> Bool in
            (try? await ExternalTool.runDetached("pactl", ["info"], environment: environment)) != nil
        }
        guard pid != nil, answered else {
            stop()
            throw ExternalTool.Failure(description: "pulseaudio did not answer on \(socketPath) within \(seconds) s")
        }
    }

    /// Kills the server at once, as a crash would, and waits until it is gone.
    public func kill() { signal(SIGKILL) }

    /// Stops the server if it is running.
    public func stop() { signal(SIGTERM) }

    private func signal(_ signal: Int32) {
        guard let pid else { return }
        Foundation.kill(pid, signal)
        let deadline = Date().addingTimeInterval(10)
        while Self.isAlive(pid), Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        self.pid = nil
    }

    /// The pid of the pulseaudio process started with `config`.
    private static func findServer(config: String) -> pid_t? {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for entry in entries {
            guard let pid = pid_t(entry),
                  let cmdline = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else { continue }
            let arguments = cmdline.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            if arguments.first?.hasSuffix("pulseaudio") == true, arguments.contains(config) { return pid }
        }
        return nil
    }

    /// True while `pid` runs (a zombie waiting for its reaper counts as gone).
    private static func isAlive(_ pid: pid_t) -> Bool {
        guard let stat = FileManager.default.contents(atPath: "/proc/\(pid)/stat") else { return false }
        let text = String(decoding: stat, as: UTF8.self)
        guard let close = text.lastIndex(of: ")") else { return false }
        return !text[close...].hasPrefix(") Z")
    }

    /// Plays `path` into the null sink and returns at once; the player stops by itself at the end of the file.
    @discardableResult
    public func play(_ path: String) throws -> Process {
        try Launch.start(["paplay", path], environment: clientEnvironment)
    }

    deinit { stop() }
}
