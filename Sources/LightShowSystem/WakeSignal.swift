#if canImport(Glibc)
import Glibc
#endif

/// The one wake-up primitive: a non-blocking, close-on-exec pipe that a sleeping thread polls beside its other
/// descriptors. `signal()` makes `readFD` readable until `consume()`; a thread that never consumes stays woken,
/// which is how a stop request reaches every later wait. `send(byte:)` is async-signal-safe, so signal handlers
/// can pass their number through it.
public final class WakeSignal: Sendable {
    private let pipe: OwnedPipe
    /// Poll this for `POLLIN`.
    public var readFD: Int32 { pipe.read.rawValue }
    private var writeFD: Int32 { pipe.write.rawValue }

    public init() throws(SystemCallError) {
        pipe = try OwnedPipe(nonBlocking: true)
    }

    /// Wakes the reader. A full pipe already says so.
    public func signal() {
        send(byte: 1)
    }

    /// Writes one byte; safe inside a signal handler.
    public func send(byte: UInt8) {
        var byte = byte
        _ = write(writeFD, &byte, 1)
    }

    /// Clears the signal and returns the bytes that were waiting (at most 64).
    @discardableResult
    public func consume() -> [UInt8] {
        var taken: [UInt8] = []
        var chunk = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        let size = MemoryLayout.size(ofValue: chunk)
        while true {
            let count = withUnsafeMutableBytes(of: &chunk) { read(readFD, $0.baseAddress, size) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            if taken.count < 64 {
                withUnsafeBytes(of: chunk) { taken.append(contentsOf: $0.prefix(min(count, 64 - taken.count))) }
            }
            if count < size { break }
        }
        return taken
    }

    /// Waits up to `duration` for the signal; true when signalled.
    public func wait(for duration: Duration) -> Bool {
        var fd = pollfd(fd: readFD, events: Int16(POLLIN), revents: 0)
        return Poll.wait(&fd, count: 1, timeout: duration) > 0
    }
}
