import LightShowConfig
import LightShowSystem

#if canImport(Glibc)
import Glibc
#endif

/// The config parser's guard for this program: the text goes to `lightshow config probe` (this executable again, in
/// a child process) before it reaches TOMLKit here. If toml++ aborts on it, only the child dies, and the command,
/// the daemon or its reload reports an error instead of dying with it.
enum ConfigParserProbe {
    /// Longest a probe may take; TOMLKit reads a 1 MiB config in well under a second.
    static let timeoutNanoseconds: UInt64 = 10_000_000_000

    static func install() {
        ConfigParserGuard.install(run)
    }

    @Sendable static func run(_ text: String) -> ConfigParserGuard.Verdict {
        // A socket rather than a pipe: a child that dies early must not kill us with SIGPIPE (MSG_NOSIGNAL).
        guard let pair = try? Socket.pair() else {
            return .survived  // no probe possible: parse as before
        }
        let ours = pair.first
        let child: pid_t?
        do {
            // The child's end is closed here once the child has it.
            let theirs = pair.second
            child = spawn(stdin: theirs.rawValue)
        }
        guard let child else { return .survived }
        // A child that went away early stops the write; its status says why.
        _ = try? FileDescriptorIO.writeAll(ours.rawValue, Array(text.utf8), kind: .socket)
        Socket.shutdownWriting(ours.rawValue)
        return verdict(waitingFor: child)
    }

    /// Starts `/proc/self/exe config probe` with `stdin` as its input and no output; nil when it can't start.
    private static func spawn(stdin: Int32) -> pid_t? {
        // No crash report for a probe that dies (the verdict is the report), and none of libdispatch's log lines,
        // which it sends to syslog whatever stderr is: the probe is not the service, and its journal stays quiet.
        let environment = ["SWIFT_BACKTRACE=enable=no", "LIBDISPATCH_LOG=NO"]
            + ChildProcess.currentEnvironment(without: ["SWIFT_BACKTRACE", "LIBDISPATCH_LOG"])
        return try? ChildProcess.spawn(
            "/proc/self/exe", arguments: ["lightshow", "config", "probe"], environment: environment,
            stdin: .descriptor(stdin), stdout: .null, stderr: .null
        )
    }

    private static func verdict(waitingFor pid: pid_t) -> ConfigParserGuard.Verdict {
        switch ChildProcess.wait(pid, limit: timeoutNanoseconds) {
        case .exited, .unknown: .survived
        case .signalled(let signal): .crashed("it crashed with signal \(signal)")
        case .timedOut: .crashed("it did not finish within \(timeoutNanoseconds / 1_000_000_000) s")
        }
    }
}
