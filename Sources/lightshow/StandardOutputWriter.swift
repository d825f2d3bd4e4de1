import LightShowCore
import LightShowSystem

#if canImport(Glibc)
import Glibc
#endif

/// Collects output bytes and sends them to fd 1: at once for live input (every frame as soon as it
/// is computed), in large batches for offline files (speed).
/// A reader that went away (EPIPE, e.g. `| head`; `main` ignores SIGPIPE) is not an error: `isClosed` becomes true
/// and the caller stops. Used by one thread at a time (the thread that opens a command's output hands it on, then the
/// engine's sink), which is what makes the unchecked Sendable safe.
final class StandardOutputWriter: @unchecked Sendable {
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
        do throws(SystemCallError) {
            if case .closed = try FileDescriptorIO.writeAll(1, buffer) { isClosed = true }
        } catch {
            throw LightShowError("writing standard output: \(error.message)", exitStatus: .ioError)
        }
    }
}
