import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A plain HTTP/1.1 client over one TCP connection to 127.0.0.1, blocking with deadlines: the tests' view of the
/// daemon's web server, able to send anything (malformed, slow, partial) and read exactly what comes back.
public final class HTTPTestClient: @unchecked Sendable {
    public struct Response: Sendable, CustomStringConvertible {
        public var status: Int
        public var headers: [(String, String)]
        public var body: [UInt8]
        public var text: String { String(decoding: body, as: UTF8.self) }
        public func header(_ name: String) -> String? {
            headers.first { $0.0.lowercased() == name.lowercased() }?.1
        }
        public var description: String { "\(status) \(text)" }
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public let fd: Int32
    private var buffer: [UInt8] = []

    /// Connects to 127.0.0.1:`port`; `receiveBuffer` (bytes) shrinks the receive window before the handshake, so a
    /// client that stops reading stops taking data soon.
    public init(port: Int, timeoutSeconds: Double = 10, receiveBuffer: Int32? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        if var size = receiveBuffer {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var timeout = timeval(tv_sec: Int(timeoutSeconds), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let code = errno
            close(fd)
            throw Failure(description: "connect to 127.0.0.1:\(port): errno \(code)")
        }
    }

    deinit { close(fd) }

    public func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }  // os-idiom: the test's raw HTTP peer, independent of the server
            guard sent > 0 else { throw Failure(description: "send: errno \(errno)") }
            offset += sent
        }
    }

    public func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// A request with the usual headers for this server (`Host: 127.0.0.1:port` unless `headers` names one).
    public func request(
        _ method: String, _ target: String, port: Int, headers: [String: String] = [:], body: [UInt8] = []
    ) throws -> Response {
        var lines = ["\(method) \(target) HTTP/1.1"]
        if !headers.keys.contains(where: { $0.lowercased() == "host" }) { lines.append("Host: 127.0.0.1:\(port)") }
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { lines.append("\(name): \(value)") }
        if !body.isEmpty || method == "POST" { lines.append("Content-Length: \(body.count)") }
        try send(Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8) + body)
        return try readResponse()
    }

    /// Reads one response: status line, headers, and a body of Content-Length bytes (or up to the close).
    public func readResponse() throws -> Response {
        while true {
            if let end = find([13, 10, 13, 10]) {
                let head = String(decoding: buffer[..<end], as: UTF8.self).components(separatedBy: "\r\n")
                buffer.removeFirst(end + 4)
                let parts = head[0].split(separator: " ", maxSplits: 2)
                guard parts.count >= 2, let status = Int(parts[1]) else { throw Failure(description: "bad status line \(head[0])") }
                let headers = head.dropFirst().compactMap { line -> (String, String)? in
                    guard let colon = line.firstIndex(of: ":") else { return nil }
                    return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
                }
                var response = Response(status: status, headers: headers, body: [])
                if let length = response.header("content-length").flatMap(Int.init) {
                    while buffer.count < length { guard try fill() else { break } }
                    response.body = Array(buffer.prefix(length))
                    buffer.removeFirst(min(length, buffer.count))
                } else if status != 101 {
                    while try fill() {}
                    response.body = buffer
                    buffer.removeAll()
                }
                return response
            }
            guard try fill() else { throw Failure(description: "connection closed before a response (\(buffer.count) bytes)") }
        }
    }

    /// True once the server has closed the connection (reads end), within the socket's timeout.
    public func isClosedByServer() -> Bool {
        while true {
            guard let more = try? fill() else { return false }
            if !more { return true }
        }
    }

    // MARK: - WebSocket

    /// Asks for a WebSocket at `target`; returns the response (101 when upgraded).
    public func upgrade(_ target: String, port: Int, headers: [String: String] = [:]) throws -> Response {
        try request("GET", target, port: port, headers: [
            "Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
            "Sec-WebSocket-Version": "13",
        ].merging(headers) { $1 })
    }

    /// The next text message (server frames are unmasked); nil when the server closed or sent a close frame.
    public func readTextMessage() throws -> String? {
        while true {
            while buffer.count < 2 { guard try fill() else { return nil } }
            let opcode = buffer[0] & 0x0F
            var length = Int(buffer[1] & 0x7F)
            var offset = 2
            if length == 126 {
                while buffer.count < 4 { guard try fill() else { return nil } }
                length = Int(buffer[2]) << 8 | Int(buffer[3])
                offset = 4
            } else if length == 127 {
                while buffer.count < 10 { guard try fill() else { return nil } }
                length = buffer[2..<10].reduce(0) { $0 << 8 | Int($1) }
                offset = 10
            }
            while buffer.count < offset + length { guard try fill() else { return nil } }
            let payload = Array(buffer[offset..<(offset + length)])
            buffer.removeFirst(offset + length)
            switch opcode {
            case 0x1: return String(decoding: payload, as: UTF8.self)
            case 0x8: return nil
            case 0x9: try sendFrame(opcode: 0xA, payload: payload)
            default: continue
            }
        }
    }

    /// A masked client frame.
    public func sendFrame(opcode: UInt8, payload: [UInt8]) throws {
        precondition(payload.count < 126)
        let mask: [UInt8] = [1, 2, 3, 4]
        try send([0x80 | opcode, 0x80 | UInt8(payload.count)] + mask + payload.enumerated().map { $1 ^ mask[$0 % 4] })
    }

    // MARK: - Reading

    /// Reads more into the buffer; false at the end of the stream. Throws on a timeout or error.
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }  // os-idiom: as above
        if count > 0 {
            buffer += chunk[..<count]
            return true
        }
        if count == 0 { return false }
        if errno == ECONNRESET { return false }
        throw Failure(description: "recv: errno \(errno)")
    }

    private func find(_ pattern: [UInt8]) -> Int? {
        guard buffer.count >= pattern.count else { return nil }
        for index in 0...(buffer.count - pattern.count) where buffer[index..<(index + pattern.count)].elementsEqual(pattern) {
            return index
        }
        return nil
    }
}
