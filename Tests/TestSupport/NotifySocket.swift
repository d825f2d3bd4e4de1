import Foundation
import LightShowSystem
#if canImport(Glibc)
import Glibc
#endif

/// A real `SOCK_DGRAM` socket standing in for systemd's `NOTIFY_SOCKET`: binds a path or an `@abstract`
/// name and reads the datagrams a daemon sends to it.
public final class NotifySocket: @unchecked Sendable {
    /// The value to put in `NOTIFY_SOCKET`.
    public let address: String
    private let fd: Int32
    private let path: String?

    /// Binds a fresh socket: a path inside `directory`, or an abstract name when `abstract` is true.
    public init(in directory: TemporaryDirectory, abstract: Bool) throws {
        let name = abstract ? "@lightshow-test-\(UUID().uuidString)" : directory.file("notify.sock")
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(name.utf8)
        if abstract { bytes[0] = 0 }
        withUnsafeMutableBytes(of: &addr.sun_path) { $0.copyBytes(from: bytes) }
        // Abstract names are exactly as long as given; paths carry their NUL.
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (abstract ? 0 : 1))
        let result = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard result == 0 else {
            let code = errno
            close(fd)
            throw POSIXError(.init(rawValue: code) ?? .EIO)
        }
        self.fd = fd
        address = name
        path = abstract ? nil : name
    }

    /// The next datagram, or nil if none arrives within `timeout` seconds.
    public func receive(timeout: Double = 10) -> String? {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard Poll.wait(&poller, count: 1, timeout: .milliseconds(Int64(timeout * 1000))) > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        switch try? FileDescriptorIO.read(fd, into: &buffer) {
        case .bytes(let count): return String(decoding: buffer[0..<count], as: UTF8.self)
        case .endOfFile: return ""
        case .wouldBlock, nil: return nil
        }
    }

    /// `receive(timeout:)` on a thread of its own, so an async test waiting for a datagram leaves the
    /// cooperative pool to the code that should send it.
    public func next(timeout: Double = 10) async -> String? {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: self.receive(timeout: timeout)) }
        }
    }

    /// Datagrams until one satisfies `predicate` (returned last), or every one received when the time runs out.
    public func receive(until predicate: (String) -> Bool, timeout: Double = 10) -> [String] {
        var messages: [String] = []
        let deadline = Date().addingTimeInterval(timeout)
        while let message = receive(timeout: max(0, deadline.timeIntervalSinceNow)) {
            messages.append(message)
            if predicate(message) { break }
        }
        return messages
    }

    deinit {
        close(fd)
        if let path { unlink(path) }
    }
}
