#if canImport(Glibc)
import Glibc
#endif
import LightShowControl
import LightShowCore
import LightShowSystem
import Synchronization

/// One `lightshow-web` process: the web server, in a process of its own so that a daemon without `[web]` maps none
/// of its HTTP and WebSocket libraries (about 1 MB less resident: README, "Web page and HTTP API"). It reads its
/// settings as one line on its standard input, answers `{"listening":PORT}` or `{"error":"…"}` on its standard
/// output, and reaches the show through the control socket. It stops when its standard input closes, so it never
/// outlives the daemon.
final class WebServerProcess: Sendable {
    let pid: pid_t
    /// The port it listens on.
    let port: Int
    /// The write end of its standard input; closed by `stop()`.
    private let input: Mutex<OwnedDescriptor?>
    /// How it ended, once the watcher thread has reaped it (then finished: a second `stop()` doesn't wait).
    private let ending = BoundedQueue<ChildProcess.Ending>(capacity: 1)
    private let stopping = Atomic(false)
    /// Set once it has ended, before its pid is let go: no signal is sent after that.
    private let ended = Mutex(false)

    /// Longest a new process may take to listen (it starts in milliseconds).
    static let startLimitNanoseconds: UInt64 = 10_000_000_000
    /// Longest it may take to go once told to.
    static let stopLimitNanoseconds: UInt64 = 5_000_000_000

    private init(pid: pid_t, port: Int, input: consuming OwnedDescriptor) {
        self.pid = pid
        self.port = port
        self.input = Mutex(consume input)
    }

    /// Starts `executable` with `settings` and waits until it listens. `onExit` hears of an ending nobody asked for
    /// (a crash), on the watcher thread. Throws a message naming the address when it can't listen.
    static func start(
        executable: String, settings: WebProcessSettings, onExit: @escaping @Sendable (ChildProcess.Ending) -> Void
    ) async throws(LightShowError) -> WebServerProcess {
        // Starting a process blocks until the child has run its program: on a thread of its own, waited for to the end,
        // since a process started must not be left behind.
        let (pid, input, output): (pid_t, Int32, Int32)
        do {
            (pid, input, output) = try await DedicatedThread.complete(name: "ls-web-spawn") {
                let started = try spawn(executable)
                return (started.pid, started.input.release(), started.output.release())
            }
        } catch {
            throw error as? LightShowError ?? LightShowError("web: cannot start the web server: \(error)", exitStatus: .ioError)
        }
        let answer: Handshake
        do {
            // Both the write and the read block: on a thread of their own.
            answer = try await DedicatedThread.run(name: "ls-web-start") { () throws(LightShowError) -> Handshake in
                let deadline = MonotonicClock.now() &+ startLimitNanoseconds
                do {
                    let written = try FileDescriptorIO.writeAll(input, settings.line, kind: .file, deadline: deadline)
                    guard written == .complete else {
                        return .broken("it did not take its settings")
                    }
                } catch {
                    return .broken("writing its settings: \(error)")
                }
                return readHandshake(output, deadline: deadline)
            }
        } catch {
            // Cancelled (the daemon stops), or no thread to wait on: the half-started process goes.
            try? OwnedDescriptor(adopting: input).close()
            try? OwnedDescriptor(adopting: output).close()
            kill(pid, SIGKILL)
            // Reaped on a thread of its own: this task may be cancelled, and a wait must not hold the pool.
            try? DedicatedThread.start(name: "ls-web-reap") { _ = ChildProcess.wait(pid, limit: stopLimitNanoseconds) }
            throw error
        }
        guard case .listening(let port) = answer else {
            try? OwnedDescriptor(adopting: input).close()
            try? OwnedDescriptor(adopting: output).close()
            let ended = await reap(pid, killingFirst: answer == .timedOut)
            if case .refused(let message) = answer { throw LightShowError(message, exitStatus: .ioError) }
            throw LightShowError("\(executable): \(answer.problem), \(ended)", exitStatus: .ioError)
        }
        let process = WebServerProcess(pid: pid, port: port, input: OwnedDescriptor(adopting: input))
        do {
            try DedicatedThread.start(name: "ls-web-watch") { [process] in
                // Nothing more comes on its output: the end of it is the end of the process. Whatever comes is
                // dropped, a chunk at a time.
                var chunk = [UInt8](repeating: 0, count: 4096)
                while case .bytes? = try? FileDescriptorIO.read(output, into: &chunk) {}
                try? OwnedDescriptor(adopting: output).close()
                let ending = ChildProcess.wait(pid, limit: stopLimitNanoseconds) {
                    process.ended.withLock { $0 = true }
                }
                _ = process.ending.push(ending)
                // Every later `stop()` finds the queue finished and returns at once.
                process.ending.finish()
                if !process.stopping.load(ordering: .relaxed) { onExit(ending) }
            }
        } catch {
            try? OwnedDescriptor(adopting: output).close()
            await process.stop()
            throw error
        }
        return process
    }

    /// Tells it to stop and waits until it has (killing it after `stopLimitNanoseconds`).
    func stop() async {
        stopping.store(true, ordering: .relaxed)
        // Closing its input tells it to go.
        guard input.withLock({ $0.take() }) != nil else {
            _ = try? await ending.next()
            return
        }
        ended.withLock { ended in
            if !ended { kill(pid, SIGTERM) }
        }
        // The watcher reaps it; a process that ignores SIGTERM is killed there at the limit.
        _ = try? await ending.next()
    }

    /// What systemd hands the service's main process alone: the server must not notify, ping the watchdog or take
    /// sockets in the daemon's name.
    static let serviceOnly: Set<String> = ["NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES"]

    /// A started process and our ends of its standard input and output.
    private struct Started: ~Copyable {
        let pid: pid_t
        var input: OwnedDescriptor
        var output: OwnedDescriptor
    }

    /// The child's ends of the pipes are closed here once it has them; ours on every failure.
    private static func spawn(_ executable: String) throws(LightShowError) -> Started {
        do {
            let toChild = try OwnedPipe()
            let fromChild = try OwnedPipe()
            let pid = try ChildProcess.spawn(
                executable, arguments: ["lightshow-web"], environment: ChildProcess.currentEnvironment(without: serviceOnly),
                stdin: .descriptor(toChild.read.rawValue), stdout: .descriptor(fromChild.write.rawValue), stderr: .inherit,
                // The daemon stops it: a SIGTERM or Ctrl-C to the daemon's group must not reach it first and
                // look like a crash.
                ownProcessGroup: true
            )
            return Started(pid: pid, input: toChild.write, output: fromChild.read)
        } catch {
            throw LightShowError("web: cannot start the web server: \(error)", exitStatus: .ioError)
        }
    }

    /// What the process said first.
    enum Handshake: Equatable {
        case listening(Int)
        /// It said why not.
        case refused(String)
        /// It ended, or its output broke, before saying anything.
        case broken(String)
        case timedOut

        var problem: String {
            switch self {
            case .listening(let port): "listening on \(port)"
            case .refused(let message): message
            case .broken(let message): "it stopped before it listened (\(message))"
            case .timedOut: "it did not listen within \(startLimitNanoseconds / 1_000_000_000) s"
            }
        }
    }

    /// Reads the first line from `fd` until `deadline`.
    static func readHandshake(_ fd: Int32, deadline: UInt64) -> Handshake {
        var line: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 512)
        while !line.contains(UInt8(ascii: "\n")) {
            guard line.count < 4096 else { return .broken("a first line longer than 4096 bytes") }
            var poll = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard Poll.wait(&poll, count: 1, until: deadline) > 0 else { return .timedOut }
            do {
                switch try FileDescriptorIO.read(fd, into: &chunk) {
                case .bytes(let count): line += chunk.prefix(count)
                case .endOfFile: return .broken("no answer")
                case .wouldBlock: continue
                }
            } catch {
                return .broken("\(error)")
            }
        }
        let answer = try? JSONParser.parse(Array(line.prefix { $0 != UInt8(ascii: "\n") }))
        if let port = answer?["listening"]?.numberValue, port >= 1, port <= 65535, port.rounded() == port {
            return .listening(Int(port))
        }
        if let message = answer?["error"]?.stringValue { return .refused(SafeText.sanitized(message, limit: 400)) }
        return .broken("an answer that is neither {\"listening\":PORT} nor {\"error\":…}")
    }

    /// Waits for `pid` on a thread of its own; says how it ended.
    private static func reap(_ pid: pid_t, killingFirst: Bool) async -> String {
        if killingFirst { kill(pid, SIGKILL) }
        let ended = try? await DedicatedThread.run(name: "ls-web-reap") { () throws(LightShowError) in
            ChildProcess.wait(pid, limit: stopLimitNanoseconds)
        }
        return ended.map(describe) ?? "and it was left to end by itself"
    }

    static func describe(_ ending: ChildProcess.Ending) -> String {
        switch ending {
        case .exited(let status): "it exited with status \(status)"
        case .signalled(let signal): "it was killed by signal \(signal)"
        case .timedOut: "it was killed after \(stopLimitNanoseconds / 1_000_000_000) s"
        case .unknown: "it ended"
        }
    }

    /// `lightshow-web` beside this executable (a build tree), else in `../libexec/lightshow/` (an installed tree).
    static func executable() throws(LightShowError) -> String {
        guard let resolved = realpath("/proc/self/exe", nil) else {
            throw LightShowError("web: cannot find this executable (/proc/self/exe): \(SystemCallError.current("realpath").message)", exitStatus: .ioError)
        }
        let own = String(cString: resolved)
        free(resolved)
        let directory = own.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let candidates = ["\(directory)/lightshow-web", "\(directory)/../libexec/lightshow/lightshow-web"]
        guard let found = candidates.first(where: { access($0, X_OK) == 0 }) else {
            throw LightShowError(
                "web: the web server's executable is missing: expected \(candidates.joined(separator: " or ")) (installed with lightshow)",
                exitStatus: .ioError
            )
        }
        return found
    }
}
