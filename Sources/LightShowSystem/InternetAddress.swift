#if canImport(Glibc)
public import Glibc
#endif

/// An IPv4 or IPv6 socket address with its exact length, resolved once (at start or reload) and then reused
/// for every datagram, so no name lookup ever happens on a send path.
public struct InternetAddress: Sendable, Hashable, CustomStringConvertible {
    /// The `sockaddr_in` or `sockaddr_in6` bytes, exactly as long as the kernel must be told.
    private let bytes: [UInt8]
    public let family: Int32

    /// Copies `length` bytes of a kernel-filled address; nil unless it is AF_INET or AF_INET6 of the right size.
    public init?(_ address: UnsafePointer<sockaddr>, length: socklen_t) {
        let family = Int32(address.pointee.sa_family)
        let expected = family == AF_INET ? MemoryLayout<sockaddr_in>.size
            : family == AF_INET6 ? MemoryLayout<sockaddr_in6>.size : -1
        guard Int(length) == expected else { return nil }
        self.family = family
        bytes = Array(UnsafeRawBufferPointer(start: address, count: Int(length)))
    }

    /// A numeric IPv4 address (`"10.0.0.7"`); nil for anything else, never a lookup.
    public init?(ipv4 text: String, port: UInt16) {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, text, &address.sin_addr) == 1 else { return nil }
        let copy = address
        self = withUnsafePointer(to: copy) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { Self($0, length: socklen_t(MemoryLayout<sockaddr_in>.size))! }
        }
    }

    /// Looks `host` up (a name or a numeric IPv4/IPv6 address) and returns its first address, IPv4 preferred.
    /// Blocks on DNS: call at start or reload, never per frame.
    public static func resolve(host: String, port: UInt16) throws(AddressResolutionError) -> InternetAddress {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            let reason = status == EAI_SYSTEM ? String(cString: strerror(errno)) : String(cString: gai_strerror(status))
            throw AddressResolutionError(host: host, reason: reason)
        }
        defer { freeaddrinfo(list) }
        var found: [InternetAddress] = []
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let current = entry {
            if let raw = current.pointee.ai_addr, let address = InternetAddress(raw, length: current.pointee.ai_addrlen) {
                found.append(address)
            }
            entry = current.pointee.ai_next
        }
        guard let best = found.first(where: { $0.family == AF_INET }) ?? found.first else {
            throw AddressResolutionError(host: host, reason: "no IPv4 or IPv6 address")
        }
        return best
    }

    /// True for IPv4 224.0.0.0/4 and IPv6 ff00::/8.
    public var isMulticast: Bool {
        if family == AF_INET { return bytes[4] & 0xF0 == 0xE0 }
        return bytes[8] == 0xFF
    }

    /// Calls `body` with the address as a `sockaddr` pointer and its length.
    public func withSockaddr<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        bytes.withUnsafeBytes { raw in
            body(raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(raw.count))
        }
    }

    /// `10.0.0.7:5568` or `[fe80::1]:4048`.
    public var description: String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        let port = UInt16(bytes[2]) << 8 | UInt16(bytes[3])
        let address = bytes.withUnsafeBytes { raw in
            // IPv4 address at offset 4 of sockaddr_in, IPv6 at offset 8 of sockaddr_in6.
            inet_ntop(family, raw.baseAddress! + (family == AF_INET ? 4 : 8), &text, socklen_t(text.count))
        }
        let host = address == nil ? "?" : String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return family == AF_INET ? "\(host):\(port)" : "[\(host)]:\(port)"
    }
}

/// A host that could not be turned into an address, with the resolver's reason.
public struct AddressResolutionError: Error, Equatable, CustomStringConvertible {
    public var host: String
    public var reason: String

    public init(host: String, reason: String) {
        self.host = host
        self.reason = reason
    }

    public var description: String { "cannot resolve \(host): \(reason)" }
}
