import LightShowSystem
import LightShowAudio
import Foundation
import Testing
import TestSupport
@testable import LightShowDaemon

/// sd_notify against a real datagram socket, in both address forms.
@Suite struct SystemdNotifierTests {
    @Test(arguments: [false, true])
    func sendsEachMessageAsOneDatagram(abstract: Bool) throws {
        let dir = try TemporaryDirectory()
        let receiver = try NotifySocket(in: dir, abstract: abstract)
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": receiver.address])
        #expect(notifier.isEnabled)

        try notifier.ready()
        #expect(receiver.receive() == "READY=1")
        try notifier.status("capturing alsa:default at 48000 Hz, playing, 0 xruns, 2 subscribers")
        #expect(receiver.receive() == "STATUS=capturing alsa:default at 48000 Hz, playing, 0 xruns, 2 subscribers")
        try notifier.watchdog()
        #expect(receiver.receive() == "WATCHDOG=1")
        try notifier.stopping()
        #expect(receiver.receive() == "STOPPING=1")
    }

    @Test(arguments: [false, true])
    func reloadingCarriesTheMonotonicClock(abstract: Bool) throws {
        let dir = try TemporaryDirectory()
        let receiver = try NotifySocket(in: dir, abstract: abstract)
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": receiver.address])
        let before = SystemdNotifier.monotonicMicroseconds()
        try notifier.reloading()
        let after = SystemdNotifier.monotonicMicroseconds()
        let message = try #require(receiver.receive())
        let lines = message.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first == "RELOADING=1")
        #expect(lines.last?.hasPrefix("MONOTONIC_USEC=") == true)
        let stamp = try #require(lines.last.flatMap { $0.split(separator: "=").last }.flatMap { UInt64($0) })
        #expect((before...after).contains(stamp))
    }

    @Test func abstractNameIsNotPaddedOrTruncated() throws {
        // A name differing only by trailing bytes must not reach us: the address length is exact.
        let dir = try TemporaryDirectory()
        let receiver = try NotifySocket(in: dir, abstract: true)
        let wrong = SystemdNotifier(environment: ["NOTIFY_SOCKET": receiver.address + "x"])
        #expect(throws: SystemCallError.self) { try wrong.ready() }
        #expect(receiver.receive(timeout: 0.2) == nil)
    }

    @Test func withoutNotifySocketNothingIsSent() throws {
        let notifier = SystemdNotifier(environment: [:])
        #expect(!notifier.isEnabled)
        try notifier.ready()
    }

    @Test func missingSocketIsAnError() throws {
        let dir = try TemporaryDirectory()
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": dir.file("absent.sock")])
        #expect(throws: SystemCallError.self) { try notifier.ready() }
    }

    @Test func watchdogIntervalIsHalfOfWatchdogUsec() {
        let pid = getpid()
        #expect(SystemdNotifier(environment: ["WATCHDOG_USEC": "10000000"]).watchdogInterval == .seconds(5))
        #expect(SystemdNotifier(environment: ["WATCHDOG_USEC": "3000", "WATCHDOG_PID": "\(pid)"]).watchdogInterval == .microseconds(1500))
        #expect(SystemdNotifier(environment: ["WATCHDOG_USEC": "3000", "WATCHDOG_PID": "\(pid + 1)"]).watchdogInterval == nil)
        #expect(SystemdNotifier(environment: ["WATCHDOG_USEC": "0"]).watchdogInterval == nil)
        #expect(SystemdNotifier(environment: ["WATCHDOG_USEC": "1"]).watchdogInterval == .milliseconds(1))
        #expect(SystemdNotifier(environment: ["WATCHDOG_USEC": "soon"]).watchdogInterval == nil)
        #expect(SystemdNotifier(environment: [:]).watchdogInterval == nil)
    }
}
