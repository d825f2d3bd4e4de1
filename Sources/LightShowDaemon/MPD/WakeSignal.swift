#if canImport(Glibc)
import Glibc
#endif
import LightShowCore

/// A pipe that a blocking thread polls beside its socket: once signalled it stays readable, so every later wait
/// of that thread returns at once. Owns both descriptors.
final class WakeSignal: Sendable {
    /// Poll this for `POLLIN`.
    let readFD: Int32
    private let writeFD: Int32

    init() {
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        }
        readFD = fds[0]
        writeFD = fds[1]
    }

    func signal() {
        var byte: UInt8 = 1
        _ = write(writeFD, &byte, 1)
    }

    /// Waits up to `duration` for the signal; true when signalled.
    func wait(for duration: Duration) -> Bool {
        var fd = pollfd(fd: readFD, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(clamping: Int64((duration.inSeconds * 1000).rounded(.up)))
        while true {
            let ready = poll(&fd, 1, milliseconds)
            if ready < 0 && errno == EINTR { continue }
            return ready > 0
        }
    }

    deinit {
        if readFD >= 0 { close(readFD) }
        if writeFD >= 0 { close(writeFD) }
    }
}
