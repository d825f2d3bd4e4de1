#if canImport(Glibc)
import Glibc
#endif
import LightShowCore
import LightShowSystem

/// The terminal opened a second time for writing without waiting, so a thread that must never block (the one
/// capturing audio) can offer it a frame. A description of its own keeps standard output blocking for everyone
/// else who shares it (the shell, once we exit). Every write to the terminal goes through it, so none can block
/// for ever on a terminal that stops reading.
final class TerminalOutput: Sendable {
    private let terminal: OwnedDescriptor
    var descriptor: Int32 { terminal.rawValue }

    /// Opens the terminal behind descriptor `standard` (standard output) again.
    init(reopening standard: Int32 = 1) throws(SystemCallError) {
        terminal = try OwnedDescriptor.open("/proc/self/fd/\(standard)", O_WRONLY | O_NONBLOCK | O_NOCTTY)
    }

    /// Writes as much of `bytes` as the terminal takes within `patience` nanoseconds; returns how many that was.
    /// A terminal takes a frame in parts (about 10 KB at a time from a pseudo-terminal) and drains within a
    /// millisecond or so; a short wait for the rest costs far less than handing it to another thread.
    func write(_ bytes: UnsafeRawBufferPointer, patience: UInt64) -> Int {
        // A terminal that fails (gone) takes nothing more: what it took before is not known, and the frame is lost.
        switch try? FileDescriptorIO.writeAll(descriptor, bytes, deadline: MonotonicClock.now() &+ patience) {
        case .complete: return bytes.count
        case .closed(let written), .timedOut(let written), .interrupted(let written): return written
        case nil: return 0
        }
    }

    /// Writes all of `bytes`, however long the terminal takes, unless it takes nothing for `stall` nanoseconds or
    /// `interrupt` becomes readable and `shouldStop` says so. True when every byte went.
    func writeAll(_ bytes: [UInt8], stall: UInt64, interrupt: Int32 = -1, shouldStop: () -> Bool = { false }) -> Bool {
        let outcome = try? FileDescriptorIO.writeAll(descriptor, bytes, stall: stall, interrupt: interrupt, shouldStop: shouldStop)
        return outcome == .complete
    }
}
