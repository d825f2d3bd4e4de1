import Foundation
import LightShowAudio
import LightShowCore
import LightShowSystem
import Synchronization
import Testing
import TestSupport
@testable import LightShowDaemon

/// WATCHDOG=1 flows while capture progresses and stops when it stalls, against a real datagram socket.
@Suite struct CaptureWatchdogTests {
    /// Capture statistics a test moves by hand, as a source's reader thread would.
    final class FakeCapture: Sendable {
        let statistics = Mutex(CaptureStatistics())
        func progress() { statistics.withLock { $0.state = .running; $0.lastProgressNanoseconds = MonotonicClock.now() } }
        func lose() { statistics.withLock { $0.state = .lost } }
        var snapshot: CaptureStatistics { statistics.withLock { $0 } }
    }

    @Test(arguments: [false, true])
    func pingsOnlyWhileCaptureProgresses(abstract: Bool) async throws {
        let dir = try TemporaryDirectory()
        let receiver = try NotifySocket(in: dir, abstract: abstract)
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": receiver.address, "WATCHDOG_USEC": "200000"])
        let watchdog = try #require(CaptureWatchdog(notifier: notifier))
        #expect(watchdog.interval == .milliseconds(100))

        let capture = FakeCapture()
        let progressing = Mutex(true)
        // The "reader thread": progress every 20 ms while asked to.
        let reader = Task.detached {
            while !Task.isCancelled {
                if progressing.withLock({ $0 }) { capture.progress() }
                try? await Task.sleep(for: .milliseconds(20))
            }
        }
        let pinging = Task { await watchdog.run { capture.snapshot } }
        defer { reader.cancel(); pinging.cancel() }

        // Flowing: pings arrive, at about the interval.
        let started = Date()
        for _ in 0..<5 { #expect(await receiver.next() == "WATCHDOG=1") }
        let spacing = Date().timeIntervalSince(started) / 5
        #expect(spacing >= 0.08, "pings every \(spacing) s, faster than the 0.1 s interval")

        // Stalled: once the last progress is older than an interval, pings stop.
        progressing.withLock { $0 = false }
        var drained = 0
        while await receiver.next(timeout: 0.6) != nil { drained += 1 }
        #expect(drained <= 3, "\(drained) pings after capture stalled")

        // Device lost and being reopened: the reopen loop is alive, so pings go on.
        capture.lose()
        #expect(await receiver.next() == "WATCHDOG=1")

        // Cancelling ends the loop.
        pinging.cancel()
        #expect(await pinging.value >= 6)
    }

    @Test func progressWindow() {
        var statistics = CaptureStatistics()
        let second: UInt64 = 1_000_000_000
        #expect(!CaptureWatchdog.isProgressing(statistics, now: 10 * second, within: .seconds(5)))
        statistics.state = .running
        statistics.lastProgressNanoseconds = 8 * second
        #expect(CaptureWatchdog.isProgressing(statistics, now: 10 * second, within: .seconds(5)))
        #expect(!CaptureWatchdog.isProgressing(statistics, now: 14 * second, within: .seconds(5)))
        statistics.state = .lost
        #expect(CaptureWatchdog.isProgressing(statistics, now: 14 * second, within: .seconds(5)))
    }

    @Test func noWatchdogWithoutSystemd() {
        #expect(CaptureWatchdog(notifier: SystemdNotifier(environment: ["WATCHDOG_USEC": "200000"])) == nil)
        #expect(CaptureWatchdog(notifier: SystemdNotifier(environment: ["NOTIFY_SOCKET": "/x"])) == nil)
    }
}
