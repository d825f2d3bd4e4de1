import Foundation
import LightShowCore
import LightShowSystem
import Testing
import TestSupport

/// The OS pieces the lights stand on (in LightShowSystem): addresses, the state file. Numeric addresses only:
/// nothing here looks a name up or sends anywhere.
@Suite struct NetworkPiecesTests {
    @Test func numericAddresses() throws {
        let group = try #require(InternetAddress(ipv4: "239.255.1.2", port: 5568))
        #expect(group.description == "239.255.1.2:5568")
        #expect(group.isMulticast)
        #expect(InternetAddress(ipv4: "10.0.0.7", port: 1)?.isMulticast == false)
        for bad in ["", "256.1.1.1", "1.2.3", "wled.local", "::1", "1.2.3.4 "] {
            #expect(InternetAddress(ipv4: bad, port: 1) == nil, "\(bad)")
        }
        #expect(try InternetAddress.resolve(host: "127.0.0.1", port: 4048).description == "127.0.0.1:4048")
        let six = try InternetAddress.resolve(host: "::1", port: 4048)
        #expect(six.family == AF_INET6 && six.description == "[::1]:4048" && !six.isMulticast)
        #expect(try InternetAddress.resolve(host: "ff02::1", port: 1).isMulticast)
    }

    @Test func stateFileIsReadWithACapAndCreatedOnlyOnce() throws {
        let directory = try TemporaryDirectory()
        let file = SmallFile(path: directory.file("a/b/value"))
        #expect(try file.read(limit: 10) == nil)
        #expect(try file.create(Array("first".utf8)))
        #expect(try file.create(Array("second".utf8)) == false)
        #expect(try file.read(limit: 10) == Array("first".utf8))
        #expect(throws: SystemCallError.self) { try file.read(limit: 4) } // larger than the cap
        #expect(throws: SystemCallError.self) { try SmallFile(path: directory.path).read(limit: 10) } // a directory
    }

    @Test func aSocketReportsSendErrorsInsteadOfBlockingOrTrapping() throws {
        let socket = try UDPSocket(family: AF_INET)
        // Port 0 is refused by the kernel before anything is sent.
        let error = socket.send([1, 2, 3], to: try #require(InternetAddress(ipv4: "127.0.0.1", port: 0)))
        #expect(error?.code == EINVAL)
        #expect(throws: SystemCallError.self) {
            try socket.setMulticastInterface(InternetAddress.resolve(host: "::1", port: 0))
        }
    }

    @Test func pollWaitsUntilTheDeadlineNotARoundedMillisecond() throws {
        let wake = try WakeSignal()
        var descriptor = pollfd(fd: wake.readFD, events: Int16(POLLIN), revents: 0)
        let deadline = MonotonicClock.now() + 2_500_000
        #expect(Poll.wait(&descriptor, count: 1, until: deadline) == 0)
        let now = MonotonicClock.now()
        #expect(now >= deadline && now < deadline + 50_000_000)
        wake.signal()
        #expect(Poll.wait(&descriptor, count: 1, until: MonotonicClock.now() + 5_000_000_000) == 1)
        #expect(Poll.wait(&descriptor, count: 1, until: 0) == 1) // a past deadline still reports what is ready
    }
}
