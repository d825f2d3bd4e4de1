import Foundation
#if canImport(Glibc)
import Glibc
#endif
import LightShowCore
import LightShowSystem
import Logging
import Testing
import TestSupport
@testable import LightShowDaemon

/// `[web]` replaced by a reload while the daemon stops: real `lightshow-web` processes, started and stopped by the
/// daemon's own `DaemonWeb`.
@Suite(.serialized) struct DaemonWebRaceTests {
    static func settings(_ listen: String, hosts: [String] = []) -> WebSettings {
        var settings = WebSettings()
        settings.listen = listen
        settings.hosts = hosts
        return settings
    }

    /// Whether `pid` still runs (a zombie counts as gone).
    static func isRunning(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        return !stat[stat.index(after: close)...].hasPrefix(" Z")
    }

    /// A reload's new server and the daemon's stop at once: both callers hear back, and no server outlives the stop,
    /// whichever of the two goes first.
    /// The new server on another address (it starts before the old one goes), or on the same one (the old one goes
    /// first).
    @Test(arguments: [false, true], ["127.0.0.2:0", "127.0.0.1:0"])
    func aReloadRacingTheStopLeavesNoServerAndNoWaiter(stopFirst: Bool, newListen: String) async throws {
        let directory = try TemporaryDirectory("ls-web-race")
        let web = DaemonWeb(socketPath: directory.file("control.sock"), logger: Logger(label: "test"))
        try await web.apply(Self.settings("127.0.0.1:0"))
        let first = try #require(web.pid)
        let answered = Locked(0)
        let replace = { @Sendable in
            _ = try? await web.apply(Self.settings(newListen, hosts: ["race.test"]))
            answered.withLock { $0 += 1 }
        }
        let stop = { @Sendable in
            await web.stop()
            answered.withLock { $0 += 1 }
        }
        if stopFirst {
            Task { await stop() }
            Task { await replace() }
        } else {
            Task { await replace() }
            Task { await stop() }
        }
        #expect(await Wait.until(within: 30) { answered.current == 2 }, "a caller was left waiting")
        #expect(web.pid == nil, "a server started after the stop is still running")
        if let left = web.pid { kill(left, SIGKILL) }
        #expect(await Wait.until(within: 10) { !Self.isRunning(first) })
    }
}
