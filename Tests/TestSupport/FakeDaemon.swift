import Foundation
import LightShowSystem
#if canImport(Glibc)
import Glibc
#endif

/// A hostile stand-in for the daemon's control socket: a Unix socket at `path` that answers every connection's
/// first line with `reply`, then writes `stream` over and over until `seconds` have passed, then hangs up.
/// For viewers and recorders that must survive whatever a peer sends.
public final class FakeDaemon: @unchecked Sendable {
    public let path: String
    private let listener: Int32

    public init(path: String, reply: String, stream: String, seconds: Double) throws {
        self.path = path
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw ExternalTool.Failure(description: "socket failed") }
        self.listener = listener
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            let bytes = Array(path.utf8.prefix(raw.count - 1))
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, listen(listener, 8) == 0 else { throw ExternalTool.Failure(description: "bind \(path) failed") }
        Thread.detachNewThread {
            while true {
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else { return }
                Thread.detachNewThread {
                    defer { close(connection) }
                    func send(_ text: String) -> Bool {
                        (try? FileDescriptorIO.writeAll(connection, Array(text.utf8), kind: .socket)) == .complete
                    }
                    var byte: [UInt8] = [0]
                    while (try? FileDescriptorIO.read(connection, into: &byte)) == .bytes(1) && byte[0] != UInt8(ascii: "\n") {}
                    guard send(reply) else { return }
                    let end = Date().addingTimeInterval(seconds)
                    while Date() < end, send(stream) { usleep(10_000) }
                }
            }
        }
    }

    deinit {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        unlink(path)
    }
}
