#if canImport(Glibc)
import Glibc
#endif
import LightShowCore
import LightShowSystem

/// The terminal opened a second time for writing without waiting, so a thread that must never block (the one
/// capturing audio) can offer it a frame. A description of its own keeps standard output blocking for everyone
/// else who shares it (the shell, once we exit). Every write to the terminal goes through it, so none can block
/// for ever on a terminal that stops reading. Without one, `write` takes nothing.
final class TerminalOutput: Sendable {
    let descriptor: Int32

    /// Opens the terminal behind descriptor `standard` (standard output) again.
    init(reopening standard: Int32 = 1) {
        descriptor = open("/proc/self/fd/\(standard)", O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Writes as much of `bytes` as the terminal takes within `patience` nanoseconds; returns how many that was.
    /// A terminal takes a frame in parts (about 10 KB at a time from a pseudo-terminal) and drains within a
    /// millisecond or so; a short wait for the rest costs far less than handing it to another thread.
    func write(_ bytes: UnsafeRawBufferPointer, patience: UInt64) -> Int {
        guard descriptor >= 0, let base = bytes.baseAddress else { return 0 }
        let deadline = MonotonicClock.now() + patience
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(descriptor, base + offset, bytes.count - offset)
            if written > 0 {
                offset += written
                if offset == bytes.count { break }
            } else if written < 0 && errno == EINTR {
                continue
            } else if written == 0 || errno != EAGAIN {
                break
            }
            // Full for now (a short write says so too): wait for room rather than try again at once.
            let now = MonotonicClock.now()
            guard now < deadline else { break }
            var room = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            let milliseconds = Int32((deadline - now + 999_999) / 1_000_000)
            if poll(&room, 1, milliseconds) <= 0 { break }
        }
        return offset
    }

    /// Writes all of `bytes`, however long the terminal takes, unless it takes nothing for `stall` nanoseconds or
    /// `interrupt` becomes readable and `shouldStop` says so. True when every byte went.
    func writeAll(_ bytes: [UInt8], stall: UInt64, interrupt: Int32 = -1, shouldStop: () -> Bool = { false }) -> Bool {
        guard descriptor >= 0 else { return false }
        let outcome = try? FileDescriptorIO.writeAll(descriptor, bytes, stall: stall, interrupt: interrupt, shouldStop: shouldStop)
        return outcome == .complete
    }
}
