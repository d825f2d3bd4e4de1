import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real MPD for a test: private config, music directory, localhost port and Unix socket, a `null` output that
/// plays in real time (`sync "yes"`). Driven with `mpc`. Stopped when released.
public final class MPDServer: @unchecked Sendable {
    public let directory: TemporaryDirectory
    public let port: UInt16
    public var socketPath: String { directory.file("mpd.sock") }
    public var address: String { "127.0.0.1:\(port)" }
    private var process: Process?

    /// Where MPD plays: nowhere (in real time), or into a PulseAudio server.
    public enum Output: Sendable {
        case null
        case pulse(PulseAudioServer)
        /// MPD's `fifo` output at this path (MPD makes the fifo), as the README sets MPD up for the daemon.
        case fifo(String)
    }

    /// A server with one two-minute tone, tagged `title`, in the queue (48 kHz stereo at -6 dB).
    public static func withTone(title: String, frequency: Int, output: Output) async throws -> MPDServer {
        let server = try await MPDServer(output: output) { music in
            try ExternalTool.run("sox", ["-n", "-c", "2", "-r", "48000", "--comment", "TITLE=\(title)",
                                         "\(music)/tone.flac", "synth", "120", "sine", "\(frequency)", "gain", "-6"])
        }
        try server.mpc("update", "--wait")
        try server.mpc("add", "tone.flac")
        return server
    }

    /// A server with one tagged FLAC ("Test Tone") and one untagged WAV, both in the queue.
    public static func withTestTracks(password: String? = nil, output: Output = .null) async throws -> MPDServer {
        let server = try await MPDServer(password: password, output: output) { music in
            try ExternalTool.run("sox", ["-n", "-c", "2", "-r", "44100", "--comment", "TITLE=Test Tone",
                                         "\(music)/tone.flac", "synth", "60", "sine", "440"])
            try ExternalTool.run("sox", ["-n", "-c", "2", "-r", "44100", "\(music)/beat.wav", "synth", "60", "sine", "80"])
        }
        try server.mpc("update", "--wait", password: password)
        try server.mpc("add", "tone.flac", password: password)
        try server.mpc("add", "beat.wav", password: password)
        return server
    }

    private let environment: [String: String]

    /// Writes the config and starts MPD; `prepare` writes the tracks into the music directory.
    public init(
        password: String? = nil, output: Output = .null, prepare: (_ musicDirectory: String) throws -> Void
    ) async throws {
        directory = try TemporaryDirectory("lightshow-mpd")
        port = try Self.freePort()
        let music = directory.file("music")
        try FileManager.default.createDirectory(atPath: music, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: directory.file("playlists"), withIntermediateDirectories: true)
        try prepare(music)
        var config = """
            music_directory "\(music)"
            playlist_directory "\(directory.file("playlists"))"
            db_file "\(directory.file("db"))"
            log_file "\(directory.file("mpd.log"))"
            bind_to_address "127.0.0.1"
            bind_to_address "\(directory.file("mpd.sock"))"
            port "\(port)"

            """
        switch output {
        case .null:
            config += "audio_output {\n    type \"null\"\n    name \"null\"\n    sync \"yes\"\n}\n"
            environment = [:]
        case .fifo(let path):
            config += "audio_output {\n    type \"fifo\"\n    name \"fifo\"\n    path \"\(path)\"\n    format \"44100:16:2\"\n}\n"
            environment = [:]
        case .pulse(let pulse):
            config += "audio_output {\n    type \"pulse\"\n    name \"lights\"\n    sink \"lights\"\n}\n"
            environment = pulse.clientEnvironment
        }
        if let password { config += "password \"\(password)@read,add,control,admin\"\n" }
        try directory.write("mpd.conf", Data(config.utf8))
        try await start()
    }

    /// Starts MPD and waits until it accepts connections.
    public func start() async throws {
        process = try Launch.start(["/usr/bin/mpd", "--no-daemon", directory.file("mpd.conf")], environment: environment)
        try await waitFor("MPD accepting connections on port \(port)", timeout: 30) { SocketProbe.canConnect(port: port) }
    }

    /// Kills MPD at once (no clean shutdown), as if it crashed.
    public func kill() {
        guard let process else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        self.process = nil
        // A killed MPD leaves its socket file behind, which stops the next one binding it.
        try? FileManager.default.removeItem(atPath: socketPath)
    }

    /// Runs `mpc` against this server and returns its standard output; throws if it fails.
    @discardableResult
    public func mpc(_ arguments: String..., password: String? = nil) throws -> String {
        let host = password.map { "\($0)@127.0.0.1" } ?? "127.0.0.1"
        return try ExternalTool.run("mpc", ["-h", host, "-p", String(port)] + arguments)
    }

    deinit {
        if let process, process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    /// A localhost TCP port nobody listens on right now (the listener that found it closes on return).
    public static func freePort() throws -> UInt16 {
        guard let listener = try? HTTPTestListener() else {
            throw ExternalTool.Failure(description: "bind to a free port failed")
        }
        return UInt16(truncatingIfNeeded: listener.port)
    }
}
