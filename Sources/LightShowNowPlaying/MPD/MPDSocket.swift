#if canImport(Glibc)
import Glibc
#endif
import LightShowSystem
import LightShowCore

/// One connection to MPD. The socket is nonblocking and every wait goes through poll(2) together with the
/// client's wake-up descriptor, so a wait can time out and `MPDClient.stop()` interrupts any of them.
/// Used only by the client's own thread.
final class MPDSocket {
    static let maximumLineLength = 64 * 1024
    /// A reply longer than this (in lines or bytes) is a hostile or broken server, not a status.
    static let maximumReplyLines = 4096
    static let maximumReplyBytes = 1 << 20

    private let socket: OwnedDescriptor
    private var fd: Int32 { socket.rawValue }
    private let wakeFD: Int32
    private var buffer: [UInt8] = []

    private init(socket: consuming OwnedDescriptor, wakeFD: Int32) {
        self.socket = socket
        self.wakeFD = wakeFD
    }

    /// Connects to `address`, trying each resolved address in turn.
    static func connect(to address: MPDAddress, wakeFD: Int32, timeout: Duration) throws(MPDError) -> MPDSocket {
        switch address {
        case .unix(let path):
            let unixAddress: UnixSocketAddress
            do throws(SystemCallError) {
                unixAddress = try UnixSocket.address(path, for: "socket path")
            } catch {
                throw .unreachable(error.operation)
            }
            let result = unixAddress.withSockaddr { sockaddr, length -> Result<MPDSocket, MPDError> in
                do throws(MPDError) {
                    return .success(try connect(family: AF_UNIX, protocol: 0, address: sockaddr, length: length,
                                                wakeFD: wakeFD, timeout: timeout, name: path))
                } catch {
                    return .failure(error)
                }
            }
            return try result.get()
        case .tcp(let host, let port):
            var hints = addrinfo()
            hints.ai_family = AF_UNSPEC
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            var list: UnsafeMutablePointer<addrinfo>?
            let status = getaddrinfo(host, String(port), &hints, &list)
            guard status == 0 else {
                throw .unreachable("cannot resolve \(host): \(String(cString: gai_strerror(status)))")
            }
            defer { freeaddrinfo(list) }
            var lastError = MPDError.unreachable("no address for \(host)")
            var node = list
            while let info = node?.pointee {
                do {
                    return try connect(family: info.ai_family, protocol: info.ai_protocol, address: info.ai_addr,
                                       length: info.ai_addrlen, wakeFD: wakeFD, timeout: timeout, name: "\(address)")
                } catch .stopped {
                    throw .stopped
                } catch {
                    lastError = error
                }
                node = info.ai_next
            }
            throw lastError
        }
    }

    private static func connect(
        family: Int32, protocol proto: Int32, address: UnsafePointer<sockaddr>?, length: socklen_t,
        wakeFD: Int32, timeout: Duration, name: String
    ) throws(MPDError) -> MPDSocket {
        guard let address else { throw .unreachable("no address for \(name)") }
        let connection: MPDSocket  // closes its socket on every path out
        let start: Socket.ConnectStart
        do throws(SystemCallError) {
            let socket = try Socket.make(family: family, type: Int32(SOCK_STREAM.rawValue), protocol: proto, nonBlocking: true)
            let fd = socket.rawValue
            connection = MPDSocket(socket: socket, wakeFD: wakeFD)
            start = try Socket.connect(fd, to: address, length: length, name: name)
        } catch {
            throw .unreachable(error.operation == "socket" ? "socket: \(error.message)" : "cannot connect to \(name): \(error.message)")
        }
        if start == .inProgress {
            try connection.wait(for: Int16(POLLOUT), timeout: timeout)
            if let failure = Socket.pendingError(connection.fd, name: name) {
                throw .unreachable("cannot connect to \(name): \(failure.message)")
            }
        }
        return connection
    }

    /// Sends one command line.
    func send(_ command: String, timeout: Duration) throws(MPDError) {
        let bytes = Array((command + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let outcome = bytes.withUnsafeBytes { raw in
                Result { () throws(SystemCallError) in
                    try FileDescriptorIO.writeSome(fd, UnsafeRawBufferPointer(rebasing: raw[offset...]), kind: .socket)
                }
            }
            switch outcome {
            case .success(.wrote(let sent)): offset += sent
            case .success(.wouldBlock): try wait(for: Int16(POLLOUT), timeout: timeout)
            case .success(.closed): throw .unreachable("write to MPD failed: the connection was closed")
            case .failure(let error): throw .unreachable("write to MPD failed: \(error.message)")
            }
        }
    }

    /// Reads one line without its newline. `timeout` nil waits as long as it takes (for `idle`). When
    /// `interruptFD` is given, its becoming readable ends the wait with `MPDError.interrupted`.
    func readLine(timeout: Duration?, interruptFD: Int32 = -1) throws(MPDError) -> String {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            guard buffer.count <= Self.maximumLineLength else {
                throw .protocolError("reply line longer than \(Self.maximumLineLength) bytes")
            }
            try wait(for: Int16(POLLIN), timeout: timeout, interruptFD: interruptFD)
            let outcome: FileDescriptorIO.ReadOutcome
            do throws(SystemCallError) {
                outcome = try FileDescriptorIO.read(fd, into: &chunk)
            } catch {
                throw .unreachable("read from MPD failed: \(error.message)")
            }
            switch outcome {
            case .bytes(let count): buffer.append(contentsOf: chunk[..<count])
            case .endOfFile: throw .unreachable("MPD closed the connection")
            case .wouldBlock: break  // readiness that went: wait again
            }
        }
    }

    /// Reads a reply up to its `OK`. An `ACK` becomes `MPDError.ack`. `timeout` bounds the whole reply, which is
    /// also capped in lines and bytes, so a server that streams without end can't grow our memory. Only `idle`'s
    /// reply passes `interruptFD` (the client's command signal): any other reply must be read to its end, or the
    /// connection falls out of step.
    func readReply(timeout: Duration?, interruptFD: Int32 = -1) throws(MPDError) -> [MPDField] {
        let deadline = timeout.map { ContinuousClock.now.advanced(by: $0) }
        var fields: [MPDField] = []
        var bytes = 0
        while true {
            let remaining = deadline.map { max(.zero, ContinuousClock.now.duration(to: $0)) }
            let line = try readLine(timeout: remaining, interruptFD: interruptFD)
            bytes += line.utf8.count + 1
            switch try MPDProtocol.parse(line) {
            case .ok: return fields
            case .ack(let line): throw .ack(SafeText.sanitized(line, limit: 200))
            case .field(let field): fields.append(field)
            }
            guard fields.count <= Self.maximumReplyLines, bytes <= Self.maximumReplyBytes else {
                throw .protocolError("reply longer than \(Self.maximumReplyLines) lines or \(Self.maximumReplyBytes) bytes")
            }
        }
    }

    /// Waits until the socket is ready for `events`; throws `.stopped` when woken, `.interrupted` when
    /// `interruptFD` (if ≥ 0) is readable, `.unreachable` on time-out.
    private func wait(for events: Int16, timeout: Duration?, interruptFD: Int32 = -1) throws(MPDError) {
        var fds = [
            pollfd(fd: fd, events: events, revents: 0),
            pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0),
            pollfd(fd: interruptFD, events: Int16(POLLIN), revents: 0),
        ]
        let ready = Poll.wait(&fds, count: fds.count, timeout: timeout)
        guard ready >= 0 else { throw .unreachable("poll failed: \(SystemCallError.current("poll").message)") }
        if fds[1].revents != 0 { throw .stopped }
        if fds[2].revents != 0 { throw .interrupted }
        guard ready > 0 else {
            throw .unreachable("MPD did not answer within \((timeout ?? .zero).inSeconds.rounded()) s")
        }
        // Readiness, hang-up or error: the read or write that follows tells which.
    }
}
