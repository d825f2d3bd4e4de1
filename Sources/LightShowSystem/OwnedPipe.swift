import CSpawn
#if canImport(Glibc)
import Glibc
#endif

/// A close-on-exec pipe: what is written to `write` is read from `read`. An end given to a child as a standard
/// stream loses the flag there (dup2), and the parent closes its copy by dropping it. Frozen, so its owner can
/// take the two ends apart.
@frozen public struct OwnedPipe: ~Copyable, Sendable {
    public var read: OwnedDescriptor
    public var write: OwnedDescriptor

    /// Both ends non-blocking when `nonBlocking` (a self-pipe that a signal handler writes and a poll loop reads).
    public init(nonBlocking: Bool = false) throws(SystemCallError) {
        var fds: [Int32] = [-1, -1]
        guard pipe2(&fds, O_CLOEXEC | (nonBlocking ? O_NONBLOCK : 0)) == 0 else { throw .current("pipe") }
        read = OwnedDescriptor(adopting: fds[0])
        write = OwnedDescriptor(adopting: fds[1])
    }
}
