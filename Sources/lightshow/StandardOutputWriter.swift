import LightShowCore

#if canImport(Glibc)
import Glibc
#endif

/// Collects output bytes and sends them to fd 1 with write(2): at once for live input (every frame as soon as it
/// is computed), in large batches for offline files (speed).
/// A reader that went away (EPIPE, e.g. `| head`; `main` ignores SIGPIPE) is not an error: `isClosed` becomes true
/// and the caller stops.
final class StandardOutputWriter {
    /// Offline batches are flushed at this size.
    static let batchBytes = 64 * 1024

    var buffer: [UInt8] = []
    private(set) var isClosed = false
    private let immediate: Bool

    /// - Parameter immediate: flush after every frame (live input).
    init(immediate: Bool) {
        self.immediate = immediate
        buffer.reserveCapacity(immediate ? 256 : Self.batchBytes + 4096)
    }

    /// Call after each appended frame.
    func frameDone() throws {
        if immediate || buffer.count >= Self.batchBytes { try flush() }
    }

    func flush() throws {
        guard !isClosed, !buffer.isEmpty else { return }
        defer { buffer.removeAll(keepingCapacity: true) }
        try buffer.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(1, bytes.baseAddress! + offset, bytes.count - offset)
                if written >= 0 {
                    offset += written
                    continue
                }
                switch errno {
                case EINTR, EAGAIN:
                    continue
                case EPIPE:
                    isClosed = true
                    return
                case let code:
                    let reason = String(cString: strerror(code))
                    throw LightShowError("writing standard output: \(reason)", exitStatus: .ioError)
                }
            }
        }
    }
}
