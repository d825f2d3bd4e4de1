import Foundation

/// A tmux server on a private socket running one command in a detached session, read with `capture-pane`
/// and driven with `send-keys`. The server is killed when the value is released.
public final class TmuxSession: @unchecked Sendable {
    public let socket: String

    /// Starts `command` (run by `sh -c`) in a `columns`×`rows` window with `environment` set for it.
    /// The command is followed by `echo EXIT=<status>` and a long sleep, so the pane stays to be inspected.
    public init(columns: Int, rows: Int, environment: [String: String], command: String) throws {
        socket = "ls-\(getpid())-\(UUID().uuidString.prefix(8))"
        var arguments = ["new-session", "-d", "-s", "s", "-x", "\(columns)", "-y", "\(rows)"]
        for (key, value) in environment.sorted(by: { $0.key < $1.key }) { arguments += ["-e", "\(key)=\(value)"] }
        arguments.append("\(command); echo EXIT=$?; sleep 600")
        try detached(arguments)
    }

    deinit { try? detached(["kill-server"]) }

    /// Runs a tmux command whose server may outlive it, through `system(3)`: the client forks the server, and
    /// nothing of ours (no pipe) is left for the server to hold open.
    private func detached(_ arguments: [String]) throws {
        let quoted = (["tmux", "-L", socket] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let status = system("env -u TMUX " + quoted.joined(separator: " ") + " </dev/null >/dev/null 2>&1")
        guard status == 0 else {
            throw ExternalTool.Failure(description: "tmux \(arguments.first ?? "") failed with status \(status)")
        }
    }

    @discardableResult
    public func tmux(_ arguments: [String]) throws -> String {
        try ExternalTool.run("tmux", ["-L", socket] + arguments, environment: ["TMUX": ""])
    }

    /// Types keys as tmux names them (`Space`, `Escape`, `Right`, `Tab`, or literal text).
    public func send(_ keys: String...) throws {
        try tmux(["send-keys", "-t", "s"] + keys)
    }

    /// The pane's text, one line per row.
    public func text() -> String { (try? tmux(["capture-pane", "-p", "-t", "s"])) ?? "" }

    /// The pane with its colours as SGR sequences, parsed into cells.
    public func screen() -> PaneScreen { PaneScreen(parsing: (try? tmux(["capture-pane", "-e", "-p", "-t", "s"])) ?? "") }

    public func display(_ format: String) -> String {
        ((try? tmux(["display", "-p", "-t", "s", format])) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    public func resize(columns: Int, rows: Int) throws {
        try tmux(["resize-window", "-t", "s", "-x", "\(columns)", "-y", "\(rows)"])
    }

    /// The process the pane's shell started (the program under test), once it runs.
    public func childProcess() -> pid_t? {
        guard let shell = Int32(display("#{pane_pid}")) else { return nil }
        let children = (try? String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)) ?? ""
        return children.split(separator: " ").first.flatMap { Int32($0) }
    }
}
