import Foundation
import LightShowSystem
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

@Suite struct UnixSocketTests {
    /// A listener at a path under a temporary directory takes a connection; bytes go both ways.
    @Test(.timeLimit(.minutes(1))) func connectAndListenRoundTrip() throws {
        let root = try TemporaryDirectory("unix")
        let path = root.file("s.sock")
        let listener = try UnixSocket.listen(at: path, mode: 0o600)
        var info = stat()
        #expect(lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFSOCK && info.st_mode & 0o777 == 0o600)
        let client = try UnixSocket.connect(to: path)
        var pollers = [pollfd(fd: listener.rawValue, events: Int16(POLLIN), revents: 0)]
        #expect(Poll.wait(&pollers, count: 1, timeout: .seconds(10)) == 1)
        guard let accepted = try ListeningSocket.accept(listener.rawValue) else {
            Issue.record("no connection waited")
            return
        }
        #expect(try FileDescriptorIO.writeAll(client.rawValue, Array("ping".utf8), kind: .socket) == .complete)
        #expect(try Self.read(accepted.rawValue, count: 4) == "ping")
        #expect(try FileDescriptorIO.writeAll(accepted.rawValue, Array("pong".utf8), kind: .socket) == .complete)
        #expect(try Self.read(client.rawValue, count: 4) == "pong")
        #expect(try UnixSocket.liveness(of: path) == .listening)
    }

    @Test func aPathTooLongIsRefusedNamingIt() throws {
        let path = "/tmp/" + String(repeating: "d", count: 120) + "/s.sock"
        let error = #expect(throws: SystemCallError.self) { _ = try UnixSocket.connect(to: path) }
        #expect(error?.code == ENAMETOOLONG)
        #expect(error?.description.contains(path) == true)
        #expect(error?.description.contains("longer than the 107 a socket path may have") == true)
        #expect(throws: SystemCallError.self) { _ = try UnixSocket.listen(at: path) }
    }

    @Test func nobodyListeningIsStale() throws {
        let root = try TemporaryDirectory("unix")
        let path = root.file("s.sock")
        do { _ = try UnixSocket.listen(at: path) }  // closed at once: a leftover file
        #expect(try UnixSocket.liveness(of: path) == .stale)
        #expect(throws: SystemCallError("connect \(path)", code: ECONNREFUSED)) { _ = try UnixSocket.connect(to: path) }
    }

    @Test func aDatagramArrives() throws {
        let root = try TemporaryDirectory("unix")
        let path = root.file("notify")
        let receiver = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer { close(receiver) }
        let address = try UnixSocket.address(path, for: "bind")
        #expect(address.withSockaddr { bind(receiver, $0, $1) } == 0)
        try UnixSocket.sendDatagram(Array("READY=1".utf8), to: path)
        var buffer = [UInt8](repeating: 0, count: 64)
        #expect(try FileDescriptorIO.read(receiver, into: &buffer) == .bytes(7))
        #expect(String(decoding: buffer.prefix(7), as: UTF8.self) == "READY=1")
    }

    /// Reads exactly `count` bytes from a blocking socket.
    static func read(_ fd: Int32, count: Int) throws -> String {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: count)
        while received.count < count {
            guard case .bytes(let got) = try FileDescriptorIO.read(fd, into: &buffer) else { break }
            received += buffer.prefix(got)
        }
        return String(decoding: received, as: UTF8.self)
    }
}
