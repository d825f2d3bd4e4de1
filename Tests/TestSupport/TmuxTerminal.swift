import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real terminal for viewer tests: a detached tmux session on a private server socket, read with
/// `capture-pane` and typed into with `send-keys`. The server is killed on deinit.
public final class TmuxTerminal: @unchecked Sendable {
    public let server = "ls-\(UUID().uuidString.prefix(8))"

    /// Runs `command` (a shell command line) in a `columns`×`rows` session with `environment` added.
    public init(_ command: String, environment: [String: String] = [:], columns: Int = 120, rows: Int = 36) throws {
        var arguments = ["-L", server, "new-session", "-d", "-s", "s", "-x", "\(columns)", "-y", "\(rows)"]
        for (key, value) in environment.sorted(by: { $0.key < $1.key }) { arguments += ["-e", "\(key)=\(value)"] }
        arguments.append(command)
        let status = Self.spawnAndWait(["tmux"] + arguments)
        guard status == 0 else {
            throw ExternalTool.Failure(description: "tmux new-session exited with \(status)")
        }
    }

    /// posix_spawn + waitpid rather than Foundation's `Process`, which doesn't see the tmux client exit while the
    /// server it forked lives on.
    private static func spawnAndWait(_ arguments: [String]) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd in Int32(0)...2 {
            posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid = pid_t()
        guard posix_spawnp(&pid, arguments[0], &actions, nil, &argv, environ) == 0 else { return -1 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return status
    }

    /// The screen as text.
    public func screen() -> String {
        (try? ExternalTool.run("tmux", ["-L", server, "capture-pane", "-p", "-t", "s"])) ?? ""
    }

    /// Keys as tmux names them ("q", "Space", "C-c").
    public func send(_ keys: String...) throws {
        try ExternalTool.run("tmux", ["-L", server, "send-keys", "-t", "s"] + keys)
    }

    /// True once the screen contains `text` (polled until `timeout`).
    public func waitFor(_ text: String, timeout: Double = 30) -> Bool {
        Wait.until(timeout: timeout) { self.screen().contains(text) }
    }

    deinit {
        _ = Self.spawnAndWait(["tmux", "-L", server, "kill-server"])
    }
}
