import Foundation
import LightShowControl
import Testing
import TestSupport

/// `lightshow ctl` against a real control server on a private socket.
@Suite struct CtlCommandTests {
    actor Handler: ControlCommandHandler {
        var state = "playing"

        func handle(_ command: ControlCommand, arguments: JSONObject) async -> ControlReply {
            switch command {
            case .pause: state = "paused"
            case .play: state = "playing"
            case .reload: return .failure("/etc/lightshow/lightshow.toml:2: error: bands.bass.upper: 30000 is above the axis maximum 20000")
            default: break
            }
            return .success(["state": .string(state), "levels": ["bass": 0.5, "mid": 0.25]])
        }
    }

    final class Daemon: @unchecked Sendable {
        let directory: TemporaryDirectory
        let server: ControlServer<Handler>
        var socket: String { server.path }

        init() throws {
            directory = try TemporaryDirectory("ls-ctl")
            server = try ControlServer(path: directory.file("control.sock"), handler: Handler())
            server.start()
        }

        deinit { server.shutdown() }
    }

    @Test func statusIsHumanReadable() async throws {
        let daemon = try Daemon()
        let result = try await LightshowProcess.runDetached(["ctl", "--timeout", "60s", "--socket", daemon.socket, "status"])
        #expect(result.status == 0)
        // A summary of what the reply has (this fake daemon's is short): the state, then the levels as bars.
        #expect(result.stdout == "● playing\nLevels:  bass █████░░░░░ 50%  mid ██▌░░░░░░░ 25%\n")
    }

    @Test func jsonPrintsTheReplyAsItIs() async throws {
        let daemon = try Daemon()
        let result = try await LightshowProcess.runDetached(["ctl", "--timeout", "60s", "--socket", daemon.socket, "--json", "pause"])
        #expect(result.status == 0)
        #expect(result.stdout == #"{"id":1,"ok":true,"result":{"state":"paused","levels":{"bass":0.5,"mid":0.25}}}"# + "\n")
    }

    @Test func socketIsFoundInTheRuntimeDirectory() async throws {
        let daemon = try Daemon()
        let result = try await LightshowProcess.runDetached(
            ["ctl", "--timeout", "60s", "toggle"], environment: ["RUNTIME_DIRECTORY": daemon.directory.path, "XDG_CONFIG_HOME": daemon.directory.path]
        )
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("state: playing\n"))
    }

    @Test func failedReloadExits78WithTheErrors() async throws {
        let daemon = try Daemon()
        let result = try await LightshowProcess.runDetached(["ctl", "--timeout", "60s", "--socket", daemon.socket, "reload"])
        #expect(result.status == 78)
        #expect(result.stderr == "lightshow: reload: /etc/lightshow/lightshow.toml:2: error: bands.bass.upper: 30000 is above the axis maximum 20000\n")
    }

    @Test func subscribeStreamsEvents() async throws {
        let daemon = try Daemon()
        let server = daemon.server
        // A stream of frames until the test ends; ctl exits when the server shuts down and closes it.
        let publisher = Task {
            var seq = 0
            while !Task.isCancelled {
                seq += 1
                server.publishFrame(["event": "frame", "seq": .number(Double(seq))])
                try? await Task.sleep(for: .milliseconds(10))
            }
        }
        let stopper = Task {
            // End the stream once the subscriber has been connected for a while.
            _ = await Wait.until(within: 10) { server.connectionCounts.subscribers == 1 }
            try? await Task.sleep(for: .milliseconds(500))
            server.shutdown()
        }
        let result = try await LightshowProcess.runDetached(["ctl", "--timeout", "60s", "--socket", daemon.socket, "subscribe", "--fps", "20"])
        publisher.cancel()
        await stopper.value
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count >= 2)
        #expect(lines.allSatisfy { $0.hasPrefix(#"{"event":"frame","seq":"#) })
    }

    /// A peer on the socket that keeps sending lines, none of them the reply, can't hold ctl past --timeout.
    @Test func aPeerThatNeverRepliesIsGivenUpOnAtTheTimeout() async throws {
        let dir = try TemporaryDirectory("ls-ctl-chatter")
        let line = "{\"id\":999,\"event\":\"frame\"}\n"
        let peer = try FakeDaemon(path: dir.file("control.sock"), reply: line, stream: line, seconds: 30)
        let started = ContinuousClock.now
        let result = try await LightshowProcess.runDetached(["ctl", "--timeout", "1s", "--socket", peer.path, "status"])
        let took = started.duration(to: .now)
        #expect(result.status == 74, "\(result.stderr)")
        #expect(result.stderr.contains("no reply in time"), "\(result.stderr)")
        #expect(took < .seconds(5), "ctl took \(took)")
    }

    @Test func noDaemonExits66() async throws {
        let dir = try TemporaryDirectory("ls-ctl")
        let result = try await LightshowProcess.runDetached(["ctl", "--socket", dir.file("none.sock"), "status"])
        #expect(result.status == 66)
        #expect(result.stderr.hasPrefix("lightshow: no lightshow daemon is listening on \(dir.file("none.sock"))"))
    }
}
