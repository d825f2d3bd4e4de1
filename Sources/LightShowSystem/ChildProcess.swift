#if canImport(Glibc)
public import Glibc
#endif
import LightShowCore
import CSpawn

/// Starting a child process, and waiting for one with a time limit (EINTR handled here).
public enum ChildProcess {
    /// How a wait ended.
    public enum Ending: Equatable, Sendable {
        /// Exited with this status.
        case exited(Int32)
        /// Killed by this signal.
        case signalled(Int32)
        /// Still running at the limit: killed (SIGKILL) and reaped.
        case timedOut
        /// Not ours to wait for (reaped elsewhere): nothing to judge by.
        case unknown
    }

    /// Waits up to `limit` nanoseconds (`.max`: for ever) for `pid` to end, checking every 2 ms. `beforeReaping` runs
    /// once it has ended but while its pid is still held (a zombie's pid is never reused): whoever might signal the
    /// process learns there, under its own lock, that it must not, so no signal reaches another process later given
    /// the same pid.
    public static func wait(_ pid: Glibc.pid_t, limit: UInt64, beforeReaping: () -> Void = {}) -> Ending {
        var status: Int32 = 0
        let (sum, overflow) = MonotonicClock.now().addingReportingOverflow(limit)
        let deadline = overflow ? UInt64.max : sum
        var timedOut = false
        while true {
            var info = siginfo_t()
            // WNOWAIT: it is reported, not reaped.
            let result = waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT)
            if result == 0 && info.si_signo == SIGCHLD { break }
            if result < 0 && errno != EINTR { return .unknown }
            if !timedOut && MonotonicClock.now() >= deadline {
                // Failing means it has just ended by itself; either way the next check sees it end.
                _ = kill(pid, SIGKILL)
                timedOut = true
            }
            MonotonicClock.sleep(until: MonotonicClock.now() &+ 2_000_000)
        }
        beforeReaping()
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        if timedOut { return .timedOut }
        // WIFSIGNALED / WTERMSIG / WEXITSTATUS, which Swift can't import as macros.
        let signal = status & 0x7F
        if signal != 0 && signal != 0x7F { return .signalled(signal) }
        return .exited((status >> 8) & 0xFF)
    }
}

extension ChildProcess {
    /// What one of a child's standard descriptors (0, 1, 2) is.
    public enum StandardStream: Sendable {
        /// The same as ours.
        case inherit
        /// `/dev/null`.
        case null
        /// This descriptor of ours (a pipe end).
        case descriptor(Int32)
    }

    /// Starts `path` with `arguments` (the first is its name) and `environment` (nil: ours), in a process group of its
    /// own if asked. Every descriptor besides the three standard ones is closed in the child, whatever its
    /// close-on-exec flag, and every signal starts at its default action and unblocked (ours ignore SIGPIPE and block
    /// others for their own handling). Throws when it can't start (no such file, not executable).
    public static func spawn(
        _ path: String, arguments: [String], environment: [String]? = nil,
        stdin: StandardStream = .null, stdout: StandardStream = .null, stderr: StandardStream = .inherit,
        ownProcessGroup: Bool = false
    ) throws(SystemCallError) -> Glibc.pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (target, stream) in [(Int32(0), stdin), (1, stdout), (2, stderr)] {
            switch stream {
            case .inherit: break
            case .null: posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_RDWR, 0)
            case .descriptor(let fd): posix_spawn_file_actions_adddup2(&actions, fd, target)
            }
        }
        posix_spawn_file_actions_addclosefrom_np(&actions, 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        if ownProcessGroup {
            // A group of its own: a signal to ours (Ctrl-C, `kill -- -PGID`) is for us to pass on or not.
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { $0.map { strdup($0) } + [nil] }
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp ?? [] { free(pointer) }
        }
        var pid: Glibc.pid_t = 0
        let result = envp.map { envp in posix_spawn(&pid, path, &actions, &attributes, argv, envp) }
            ?? posix_spawn(&pid, path, &actions, &attributes, argv, environ)
        guard result == 0 else { throw SystemCallError("start \(path)", code: result) }
        return pid
    }

    /// Our environment as `NAME=value` strings, without the variables named in `names`.
    public static func currentEnvironment(without names: Set<String>) -> [String] {
        var variables: [String] = []
        var entry = environ
        while let pointer = entry.pointee {
            let variable = String(cString: pointer)
            let name = variable.prefix { $0 != "=" }
            if !names.contains(String(name)) { variables.append(variable) }
            entry += 1
        }
        return variables
    }
}
