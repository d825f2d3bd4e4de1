#if canImport(Glibc)
public import Glibc
#endif

/// A `sockaddr_un` for a filesystem path or, with a leading `@`, the abstract namespace,
/// with the exact length the kernel must be given (abstract names are not NUL-terminated).
public struct UnixSocketAddress: Sendable {
    private(set) var storage = sockaddr_un()
    public let length: socklen_t

    /// The most bytes a filesystem path may have (`sun_path` less its terminating NUL): 107 on Linux.
    public static var longestPath: Int { MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1 }

    /// Nil when `name` is empty or too long for `sun_path`.
    public init?(_ name: String) {
        var bytes = Array(name.utf8)
        let abstract = bytes.first == UInt8(ascii: "@")
        if abstract { bytes[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: storage.sun_path)
        // A path needs room for its terminating NUL; an abstract name uses every byte it is given.
        guard !bytes.isEmpty, bytes.count <= (abstract ? capacity : capacity - 1) else { return nil }
        storage.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &storage.sun_path) { raw in
            raw.copyBytes(from: bytes)
        }
        let offset = MemoryLayout<sockaddr_un>.offset(of: \sockaddr_un.sun_path) ?? 2
        length = socklen_t(offset + bytes.count + (abstract ? 0 : 1))
    }

    /// Calls `body` with the address as a `sockaddr` pointer and its length.
    public func withSockaddr<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        withUnsafeBytes(of: storage) { raw in
            body(raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), length)
        }
    }
}

