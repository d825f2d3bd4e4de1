import LightShowSystem
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Starting a child: it gets the standard streams it is given and none of our other descriptors, and signals at
/// their defaults whatever we block or ignore.
@Suite struct ChildProcessTests {
    /// Runs `/bin/sh -c script` with its output on a pipe; returns the output and how it ended.
    static func run(_ script: String) throws -> (output: String, ending: ChildProcess.Ending) {
        let pipe = try OwnedPipe()
        let read = pipe.read
        let pid: pid_t
        do {
            let write = pipe.write
            pid = try ChildProcess.spawn("/bin/sh", arguments: ["sh", "-c", script], stdout: .descriptor(write.rawValue))
        }
        let output = try FileDescriptorIO.readToEnd(read.rawValue, limit: 65_536)
        return (String(decoding: output, as: UTF8.self), ChildProcess.wait(pid, limit: 10_000_000_000))
    }

    @Test func aDescriptorWithoutCloseOnExecStaysOutOfTheChild() throws {
        let fd = open("/dev/null", O_RDONLY)  // no O_CLOEXEC
        try #require(fd > 2)
        defer { close(fd) }
        let result = try Self.run("if [ -e /proc/$$/fd/\(fd) ]; then echo open; else echo closed; fi")
        #expect(result.output == "closed\n")
        #expect(result.ending == .exited(0))
    }

    @Test func aBlockedSignalIsUnblockedAndAtItsDefaultInTheChild() throws {
        var blocked = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGUSR1)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        let ignored = signal(SIGVTALRM, SIG_IGN)
        defer {
            pthread_sigmask(SIG_SETMASK, &previous, nil)
            signal(SIGVTALRM, ignored)
        }
        #expect(try Self.run("kill -USR1 $$; echo survived").ending == .signalled(SIGUSR1))
        #expect(try Self.run("kill -VTALRM $$; echo survived").ending == .signalled(SIGVTALRM))
    }

    @Test func aMissingExecutableIsAnErrorNamingIt() {
        #expect {
            try ChildProcess.spawn("/nonexistent/lightshow-web", arguments: ["lightshow-web"])
        } throws: { error in
            "\(error)".contains("/nonexistent/lightshow-web") && (error as? SystemCallError)?.code == ENOENT
        }
    }
}
