#if canImport(Glibc)
import Glibc
#endif
@testable import LightShowConfig
import LightShowSystem

/// The config probe as a long-lived child process: it parses text after text sent down a pipe and acknowledges
/// each with one byte, so an input costs two pipe round trips instead of a fork (lightshow forks once per config
/// read; here that held the target to 140 inputs a second). A child that dies mid-text found a crash; the next
/// text gets a fresh child. TOMLKit leaks a little on every parse, so a child is replaced after `textsPerChild`.
final class ProbeProcess: @unchecked Sendable {  // libFuzzer calls the target from one thread
    private var child: (pid: pid_t, toChild: Int32, fromChild: Int32)?
    private var textsInChild = 0
    private let textsPerChild = 20_000

    init() {
        // A child that dies while its text is being written must not take the fuzzer down with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
    }

    func check(_ text: String) -> ConfigParserGuard.Verdict {
        if textsInChild >= textsPerChild { _ = reap() }
        guard let child = child ?? spawn() else { return .crashed("fork failed") }
        textsInChild += 1
        var length = UInt32(text.utf8.count)
        var acknowledged: UInt8 = 0
        let sent = withUnsafeBytes(of: &length) { writeAll(child.toChild, $0) }
            && text.utf8CString.withUnsafeBytes { writeAll(child.toChild, UnsafeRawBufferPointer(rebasing: $0.dropLast())) }
        if sent && withUnsafeMutableBytes(of: &acknowledged, { readAll(child.fromChild, $0) }) { return .survived }
        return .crashed("signal \(reap())")
    }

    private func spawn() -> (pid: pid_t, toChild: Int32, fromChild: Int32)? {
        var down: [Int32] = [0, 0], up: [Int32] = [0, 0]
        guard pipe(&down) == 0, pipe(&up) == 0 else { return nil }
        let pid = fork()
        if pid == 0 {
            close(down[1]); close(up[0])
            serve(input: down[0], output: up[1])
        }
        close(down[0]); close(up[1])
        guard pid > 0 else { close(down[1]); close(up[0]); return nil }
        child = (pid, down[1], up[0])
        textsInChild = 0
        return child
    }

    /// The child's loop: never returns.
    private func serve(input: Int32, output: Int32) -> Never {
        // The probe's death is expected: no crash report from libFuzzer or the sanitizer in it.
        for number in [SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGFPE] { signal(number, SIG_DFL) }
        let null = open("/dev/null", O_WRONLY)
        dup2(null, 2)
        var length: UInt32 = 0
        while withUnsafeMutableBytes(of: &length, { readAll(input, $0) }) {
            var bytes = [UInt8](repeating: 0, count: Int(length))
            guard bytes.withUnsafeMutableBytes({ readAll(input, $0) }) else { break }
            _ = ConfigurationLoader.parse(String(decoding: bytes, as: UTF8.self))
            guard (try? FileDescriptorIO.writeAll(output, [1])) == .complete else { break }
        }
        _exit(0)
    }

    /// Closes the child's pipes (a live child then reads the end and exits), waits for it, and returns the signal that ended it (0 if it exited).
    private func reap() -> Int32 {
        guard let child else { return 0 }
        close(child.toChild); close(child.fromChild)
        let ending = ChildProcess.wait(child.pid, limit: .max)
        self.child = nil
        if case .signalled(let number) = ending { return number }
        return 0
    }
}

private func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
    (try? FileDescriptorIO.writeAll(fd, bytes)) == .complete
}

private func readAll(_ fd: Int32, _ bytes: UnsafeMutableRawBufferPointer) -> Bool {
    var offset = 0
    while offset < bytes.count {
        let outcome = try? FileDescriptorIO.read(fd, into: UnsafeMutableRawBufferPointer(rebasing: bytes[offset...]))
        guard case .bytes(let count) = outcome else { return false }
        offset += count
    }
    return true
}
