import Foundation
import LightShowSystem
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A localhost TCP server that answers every connection from a script: for protocol faults a real server
/// won't produce. Each connection gets `greeting`, then `reply(line)` for every line it sends.
public final class ScriptedServer: Sendable {
    public let port: UInt16
    private let listener: Int32
    private final class Counter: Sendable { let value = Mutex(0) }
    private let connectionCount = Counter()

    public init(greeting: String, reply: @escaping @Sendable (String) -> String) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        guard listener >= 0 else { throw ExternalTool.Failure(description: "socket failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(listener, pointer, length) == 0 && getsockname(listener, pointer, &length) == 0
            }
        }
        guard bound, listen(listener, 8) == 0 else { throw ExternalTool.Failure(description: "listen failed") }
        port = UInt16(bigEndian: address.sin_port)
        Thread.detachNewThread { [connectionCount] in
            while true {
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else { return }
                connectionCount.value.withLock { $0 += 1 }
                Thread.detachNewThread {
                    defer { close(connection) }
                    // A peer that went away ends the conversation at the next read.
                    func send(_ text: String) { _ = try? FileDescriptorIO.writeAll(connection, Array(text.utf8), kind: .socket) }
                    send(greeting)
                    var line: [UInt8] = []
                    var byte: [UInt8] = [0]
                    while (try? FileDescriptorIO.read(connection, into: &byte)) == .bytes(1) {
                        if byte[0] == UInt8(ascii: "\n") {
                            send(reply(String(decoding: line, as: UTF8.self)))
                            line.removeAll()
                        } else {
                            line.append(byte[0])
                        }
                    }
                }
            }
        }
    }

    /// How many connections the server has accepted.
    public var connections: Int { connectionCount.value.withLock { $0 } }

    deinit {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }
}
