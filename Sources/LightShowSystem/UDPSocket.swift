#if canImport(Glibc)
import Glibc
#endif

/// A non-blocking, close-on-exec UDP socket that owns its descriptor. Sending never waits: a full buffer or an
/// unreachable network comes back as an error for the caller to count, so a light on a bad link can't stall
/// the thread that feeds every other light. `sendto` is safe from any thread, so the type is Sendable.
public final class UDPSocket: Sendable {
    private let socket: OwnedDescriptor
    public var fd: Int32 { socket.rawValue }

    /// A socket for `family` (AF_INET or AF_INET6).
    public init(family: Int32) throws(SystemCallError) {
        socket = try Socket.make(family: family, type: Int32(SOCK_DGRAM.rawValue), nonBlocking: true)
    }

    /// Sends IPv4 multicast out of the interface that has `address` (IP_MULTICAST_IF), rather than the one
    /// the routing table picks.
    public func setMulticastInterface(_ address: InternetAddress) throws(SystemCallError) {
        guard address.family == AF_INET else { throw SystemCallError("IP_MULTICAST_IF", code: EAFNOSUPPORT) }
        var request = in_addr()
        address.withSockaddr { pointer, _ in
            pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { request = $0.pointee.sin_addr }
        }
        try option(Int32(IPPROTO_IP), IP_MULTICAST_IF, &request, "IP_MULTICAST_IF")
    }

    /// Binds to `address` (a receiver, or a fixed source port).
    public func bind(to address: InternetAddress) throws(SystemCallError) {
        let result = address.withSockaddr { Glibc.bind(fd, $0, $1) }
        guard result == 0 else { throw SystemCallError.current("bind \(address)") }
    }

    /// Connects to `address`: datagrams then go only there, and the kernel reports an unreachable peer (ICMP) as
    /// ECONNREFUSED on the next send or receive, which is how a stream over it learns the peer went away.
    public func connect(to address: InternetAddress) throws(SystemCallError) {
        let result = address.withSockaddr { Glibc.connect(fd, $0, $1) }
        guard result == 0 else { throw SystemCallError.current("connect \(address)") }
    }

    /// The address the socket is bound to (the kernel's choice of port after binding to port 0).
    public func localAddress() throws(SystemCallError) -> InternetAddress {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard result == 0 else { throw SystemCallError.current("getsockname") }
        let copy = storage
        let address = withUnsafePointer(to: copy) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { InternetAddress($0, length: length) }
        }
        guard let address else { throw SystemCallError("getsockname", code: EAFNOSUPPORT) }
        return address
    }

    /// Sends one datagram to `address`; nil when it went out, else the error (EAGAIN, ENOBUFS, ENETUNREACH, …).
    /// Never blocks; EINTR is retried.
    public func send(_ bytes: UnsafeRawBufferPointer, to address: InternetAddress) -> SystemCallError? {
        while true {
            let sent = address.withSockaddr { sendto(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL), $0, $1) }
            if sent >= 0 { return nil }
            if errno == EINTR { continue }
            return SystemCallError.current("send to \(address)")
        }
    }

    /// `send` of an array.
    public func send(_ bytes: [UInt8], to address: InternetAddress) -> SystemCallError? {
        bytes.withUnsafeBytes { send($0, to: address) }
    }

    /// One datagram into `buffer` without waiting: its size (cut to the buffer), or nil when none is queued.
    public func receive(into buffer: UnsafeMutableRawBufferPointer) throws(SystemCallError) -> Int? {
        while true {
            let count = recv(fd, buffer.baseAddress, buffer.count, 0)
            if count >= 0 { return count }
            switch errno {
            case EINTR: continue
            case EAGAIN: return nil
            case let code: throw SystemCallError("recv", code: code)
            }
        }
    }

    private func option<T: BitwiseCopyable>(_ level: Int32, _ name: Int32, _ value: inout T, _ label: String) throws(SystemCallError) {
        let result = setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<T>.size))
        guard result == 0 else { throw SystemCallError.current(label) }
    }
}
