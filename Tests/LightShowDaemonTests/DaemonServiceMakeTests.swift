import Foundation
import LightShowConfig
import LightShowCore
import LightShowSystem
import Testing
import TestSupport
@testable import LightShowDaemon

/// Making the daemon blocks (the config and its parser's probe process, the lights' host lookups, the password
/// file): `DaemonService.make` must do it without holding a thread of the cooperative pool.
@Suite struct DaemonServiceMakeTests {
    @Test func makingADaemonOnEveryPoolThreadLeavesThePoolFree() async throws {
        let directory = try TemporaryDirectory("ls-daemon-make")
        let socket = directory.file("held.sock")
        // The parser's probe holds this test's file until the pool has been judged; every other text passes at once,
        // as it does with no probe.
        let marker = "# held by DaemonServiceMakeTests \(UUID().uuidString)"
        let file = try directory.write("lightshow.toml", Data("\(marker)\n[control]\nsocket = \"\(socket)\"\n".utf8))
        let reached = BoundedQueue<Void>(capacity: CooperativePool.width)
        let gate = BoundedQueue<Void>(capacity: 1)
        ConfigParserGuard.install { text in
            if text.contains(marker) {
                _ = reached.tryPush(())
                _ = gate.pop(until: MonotonicClock.now() &+ 60_000_000_000)
            }
            return .survived
        }
        let sockets = Locked<[String]>([])
        let free = try await CooperativePool.staysFree(reached: reached, release: { gate.finish() }) {
            let daemon = try? await DaemonService.make(
                configurationSource: DaemonConfigurationSource(file: file), environment: ["RUNTIME_DIRECTORY": directory.path]
            )
            sockets.withLock { $0.append(daemon?.socketPath ?? "no daemon") }
        }
        #expect(free, "a task waited for a pool thread while daemons were being made")
        // Each made from the file the probe held.
        #expect(sockets.current == Array(repeating: socket, count: CooperativePool.width))
    }

    @Test func anUnknownSocketGroupIsAUsageError() async throws {
        let name = "no-such-group-\(UUID().uuidString.prefix(8))"
        do {
            _ = try await DaemonService.make(
                configurationSource: DaemonConfigurationSource(file: nil), environment: ["RUNTIME_DIRECTORY": "/tmp"],
                socketGroupName: name
            )
            Issue.record("a daemon was made with --socket-group \(name)")
        } catch let error as LightShowError {
            #expect(error.message == "--socket-group: no group named '\(name)'")
            #expect(error.exitStatus == .usage)
        }
    }
}
