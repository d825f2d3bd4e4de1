import LightShowCore
import LightShowSystem
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite struct SocketTests {
    /// A blocking read with a timeout gives up when nothing comes; 0 would wait for ever.
    @Test(.timeLimit(.minutes(1))) func aReadTimeoutEndsABlockingRead() throws {
        let pair = try Socket.pair()
        Socket.setTimeouts(pair.first.rawValue, seconds: 0.05)
        var buffer = [UInt8](repeating: 0, count: 16)
        let started = MonotonicClock.now()
        #expect(try FileDescriptorIO.read(pair.first.rawValue, into: &buffer) == .wouldBlock)
        #expect(MonotonicClock.now() - started >= 40_000_000)
    }

    @Test(arguments: [false, true])
    func shuttingDownEndsThePeersStream(both: Bool) throws {
        let pair = try Socket.pair()
        #expect(try FileDescriptorIO.writeAll(pair.first.rawValue, Array("last".utf8), kind: .socket) == .complete)
        if both { Socket.shutdownBoth(pair.first.rawValue) } else { Socket.shutdownWriting(pair.first.rawValue) }
        var buffer = [UInt8](repeating: 0, count: 16)
        #expect(try FileDescriptorIO.read(pair.second.rawValue, into: &buffer) == .bytes(4))
        #expect(try FileDescriptorIO.read(pair.second.rawValue, into: &buffer) == .endOfFile)
    }

    /// A non-blocking connect to a listener on the same machine either completes at once or is in progress, and
    /// then ends with no error.
    @Test(.timeLimit(.minutes(1))) func aNonBlockingConnectEndsWithoutAnError() throws {
        let listener = try Socket.make(family: AF_INET, type: Int32(SOCK_STREAM.rawValue))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(listener.rawValue, address, length) == 0 && listen(listener.rawValue, 1) == 0
                    && getsockname(listener.rawValue, address, &length) == 0
            }
        }
        #expect(bound)
        let client = try Socket.make(family: AF_INET, type: Int32(SOCK_STREAM.rawValue), nonBlocking: true)
        let start = try withUnsafePointer(to: &address) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                try Socket.connect(client.rawValue, to: address, length: length, name: "127.0.0.1")
            }
        }
        if start == .inProgress {
            var poller = pollfd(fd: client.rawValue, events: Int16(POLLOUT), revents: 0)
            #expect(Poll.wait(&poller, count: 1, timeout: .seconds(10)) == 1)
        }
        #expect(Socket.pendingError(client.rawValue, name: "127.0.0.1") == nil)
    }
}
