import Foundation
import LightShowControl
import LightShowCore
import LightShowSystem
import LightShowWeb
import Testing
import TestSupport

/// ctl, the viewers (`watch --connect`, `record --connect`) and the web server's relay and forwarder share one
/// control client: a peer on the socket that answers oddly is reported the same way by each of them.
@Suite struct OneControlClientTests {
    static let frame = #"{"event":"frame","index":1}"# + "\n"

    /// The subscribe handshake exists once: every subscriber names the socket and the protocol the peer speaks.
    @Test func aDaemonOfAnotherProtocolIsReportedAlikeByEverySubscriber() async throws {
        let directory = try TemporaryDirectory("ls-one-client")
        let peer = try FakeDaemon(
            path: directory.file("control.sock"), reply: #"{"id":1,"ok":true,"result":{"fps":20,"protocol":99}}"# + "\n",
            stream: Self.frame, seconds: 30
        )
        let expected = "subscribe to \(peer.path): the daemon speaks control protocol 99, this lightshow speaks 1"
            + " (restart the daemon after an upgrade)"
        for arguments in [
            ["ctl", "--socket", peer.path, "subscribe"],
            ["watch", "--connect", peer.path],
            ["record", "--connect", peer.path, "--out", directory.file("out"), "--duration", "1"],
        ] {
            let result = try await LightshowProcess.runDetached(arguments)
            #expect(result.status == 74, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("lightshow: \(expected)\n"), "\(arguments): \(result.stderr)")
        }
        // The web server's relay hears the same, and tries again later.
        let problems = BoundedQueue<String>(capacity: 4)
        let relay = try DaemonRelay(path: peer.path, framesPerSecond: 30) { _ = problems.tryPush($0) }
        defer { relay.close() }
        relay.want(true)
        let problem = try await OffPool.run { problems.pop(until: MonotonicClock.now() &+ 30_000_000_000) ?? nil }
        #expect(problem == expected)
    }

    /// The reply parsing exists once: a refusal that names no error reads the same in ctl and through the web.
    @Test func aRefusalWithoutAReasonIsReportedAlikeByCtlAndTheForwarder() async throws {
        let directory = try TemporaryDirectory("ls-one-client")
        let peer = try FakeDaemon(path: directory.file("control.sock"), reply: #"{"id":1,"ok":false}"# + "\n", stream: "\n", seconds: 5)
        let result = try await LightshowProcess.runDetached(["ctl", "--socket", peer.path, "status"])
        let forwarder = try DaemonCommandForwarder(path: peer.path)
        defer { forwarder.close() }
        let reply = await forwarder.handle(.status, arguments: [:])
        #expect(reply == .failure(#"the daemon answered {"id":1,"ok":false}"#))
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr == #"lightshow: status: the daemon answered {"id":1,"ok":false}"# + "\n")
    }

    /// No daemon: ctl and a viewer say so in the same words, naming the socket (66).
    @Test func aMissingDaemonIsReportedAlikeByCtlAndTheViewers() async throws {
        let directory = try TemporaryDirectory("ls-one-client")
        let path = directory.file("none.sock")
        var messages: Set<String> = []
        for arguments in [["ctl", "--socket", path, "status"], ["watch", "--connect", path]] {
            let result = try await LightshowProcess.runDetached(arguments)
            #expect(result.status == 66, "\(arguments): \(result.stderr)")
            messages.insert(result.stderr)
        }
        #expect(messages.count == 1, "\(messages)")
        #expect(messages.first?.hasPrefix("lightshow: no lightshow daemon is listening on \(path)") == true, "\(messages)")
    }
}
