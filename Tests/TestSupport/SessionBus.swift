import Foundation

/// A private D-Bus session bus (`dbus-daemon --session --fork`) for one test, with helpers to start real players
/// on it (mpv with the mpv-mpris plugin) and drive them with playerctl. Killed when released.
public final class SessionBus: @unchecked Sendable {
    public let address: String
    private let pid: pid_t
    private let lock = NSLock()
    private var players: [Process] = []

    /// Environment for clients of this bus.
    public var environment: [String: String] { ["DBUS_SESSION_BUS_ADDRESS": address] }

    public init() throws {
        // Through system(3) into a file: Foundation's Process loses track of a child that forks a daemon and
        // closes what it inherited, and then never reaps it.
        let directory = try TemporaryDirectory("lightshow-bus")
        let file = directory.file("address")
        let status = system("dbus-daemon --session --fork --print-address=1 --print-pid=1 </dev/null >'\(file)' 2>/dev/null")
        let output = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
        guard status == 0 else { throw ExternalTool.Failure(description: "dbus-daemon failed with status \(status)") }
        let lines = output.split(separator: "\n").map(String.init)
        guard lines.count >= 2, let pid = pid_t(lines[1]), lines[0].hasPrefix("unix:") else {
            throw ExternalTool.Failure(description: "dbus-daemon printed \(output)")
        }
        address = lines[0]
        self.pid = pid
    }

    /// SIGKILL: mpv started this way ignores SIGTERM (it blocks the signal in its threads), and so does a
    /// session dbus-daemon.
    deinit {
        for player in lock.withLock({ players }) where player.isRunning {
            Foundation.kill(player.processIdentifier, SIGKILL)
            player.waitUntilExit()
        }
        Foundation.kill(pid, SIGKILL)
    }

    /// Ends one player as a crash would.
    public func kill(_ player: Process) {
        guard player.isRunning else { return }
        Foundation.kill(player.processIdentifier, SIGKILL)
        player.waitUntilExit()
    }

    /// Starts mpv on this bus playing `file` (`--ao=null` unless `audioOutput` says otherwise), with MPRIS.
    @discardableResult
    public func startMPV(_ file: String, audioOutput: String = "null", extraEnvironment: [String: String] = [:],
                         arguments: [String] = []) throws -> Process {
        let mpv = try Launch.start(
            ["mpv", "--no-config", "--script=/usr/lib/mpv-mpris/mpris.so", "--no-video", "--no-terminal",
             "--ao=\(audioOutput)", "--loop-file=inf"] + arguments + [file],
            environment: environment.merging(extraEnvironment, uniquingKeysWith: { $1 })
        )
        lock.withLock { players.append(mpv) }
        return mpv
    }

    /// `playerctl arguments…` on this bus; its output trimmed.
    @discardableResult
    public func playerctl(_ arguments: String...) throws -> String {
        try ExternalTool.run("playerctl", arguments, environment: environment).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The MPRIS names on the bus now (`mpv`, `mpv.instance123`…), as playerctl lists them.
    public func playerNames() -> [String] {
        ((try? playerctl("--list-all")) ?? "").split(separator: "\n").map(String.init)
    }

    /// A tagged 1 kHz FLAC (`TITLE=Test Tone`, `ARTIST=Tests`) of `seconds` in `directory`.
    public static func taggedTone(in directory: TemporaryDirectory, title: String = "Test Tone",
                                  frequency: Int = 1000, seconds: Int = 10) throws -> String {
        let path = directory.file("\(title.replacingOccurrences(of: " ", with: "-")).flac")
        try ExternalTool.run("sox", ["-n", "-r", "48000", "-c", "2", "--comment", "TITLE=\(title)", "--add-comment",
                                     "ARTIST=Tests", path, "synth", "\(seconds)", "sine", "\(frequency)", "vol", "0.5"])
        return path
    }
}
