#if canImport(Glibc)
import Glibc
#endif
public import LightShowCore

/// Wakes the viewer thread for a frame it must draw itself (the feed's thread found the screen busy, or the pacer
/// held the frame back), so it sleeps until there is something to do instead of waking at every frame deadline.
/// Owns a non-blocking pipe whose read end is readable while a ring waits; any thread may `notify`, the viewer
/// `poll`s `descriptor` and `consume`s.
public final class FrameSignal: Sendable {
    /// The read end, for `poll`.
    public let descriptor: Int32
    private let writeEnd: Int32

    public init() throws(LightShowError) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            throw LightShowError("cannot create the frame signal: \(String(cString: strerror(errno)))", exitStatus: .ioError)
        }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        descriptor = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        close(descriptor)
        close(writeEnd)
    }

    /// Rings. A full pipe already says so.
    public func notify() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Clears the signal; the caller then takes the newest frame, so frames posted before this are not missed.
    public func consume() {
        var bytes = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        let size = MemoryLayout.size(ofValue: bytes)
        while withUnsafeMutableBytes(of: &bytes, { read(descriptor, $0.baseAddress, size) }) == size {}
    }
}
