import LightShowControl
import LightShowCore
import LightShowSystem
import Testing
import TestSupport
@testable import LightShowDaemon

/// The reload queue with its real worker: one request at a time, newer reloads replacing waiting ones.
@Suite struct ReloadQueueTests {
    /// A queue whose requests are recorded as they start; the first one waits until `release`.
    final class Harness: Sendable {
        let queue = ReloadQueue()
        let started = Locked<[String]>([])
        private let gate = BoundedQueue<Bool>(capacity: 1)

        init() throws {
            queue.start { [started, gate] request in
                let name: String
                switch request {
                case .reload(let caller): name = caller
                case .setBand(let band, _, _): name = "set-band \(band.rawValue)"
                case .setInput(let text): name = "set-input \(text)"
                case .edit(let what, _): name = what
                }
                let first = started.withLock { started in
                    started.append(name)
                    return started.count == 1
                }
                if first { _ = try? await gate.next() }
                return .success(.string(name))
            }
        }

        func release() { gate.push(true) }

        /// Submits `request` on a task of its own.
        func submit(_ request: ReloadQueue.Request) -> Task<ControlReply, Never> {
            Task { await queue.submit(request) }
        }

        func waitUntil(waiting count: Int) async -> Bool {
            await Wait.until(within: 10) { self.queue.waiting == count }
        }
    }

    @Test func aReloadWaitingToStartIsReplacedByANewerOne() async throws {
        let harness = try Harness()
        let first = harness.submit(.reload(caller: "a"))
        #expect(await Wait.until(within: 10) { harness.started.current == ["a"] })
        let second = harness.submit(.reload(caller: "b"))
        #expect(await harness.waitUntil(waiting: 1))
        let third = harness.submit(.reload(caller: "c"))
        #expect(await harness.waitUntil(waiting: 2))
        harness.release()
        #expect(await first.value == .success(.string("a")))
        #expect(await second.value == .success(.string("c")), "b's reload was replaced by c's")
        #expect(await third.value == .success(.string("c")))
        #expect(harness.started.current == ["a", "c"])
        harness.queue.stop()
    }

    @Test func aBandEditIsNeverReplacedAndKeepsItsPlaceBetweenReloads() async throws {
        let harness = try Harness()
        let first = harness.submit(.reload(caller: "a"))
        #expect(await Wait.until(within: 10) { harness.started.current == ["a"] })
        // One at a time: two submissions started together may reach the queue in either order.
        let second = harness.submit(.reload(caller: "b"))
        #expect(await harness.waitUntil(waiting: 1))
        let edit = harness.submit(.setBand(.bass, lower: 30, upper: nil))
        #expect(await harness.waitUntil(waiting: 2))
        let tasks = [second, edit]
        let last = harness.submit(.reload(caller: "c"))
        #expect(await harness.waitUntil(waiting: 3))
        harness.release()
        _ = await first.value
        for task in tasks { _ = await task.value }
        #expect(await last.value == .success(.string("c")))
        // c came after the edit: it may not run before it (a reload goes back to the file, dropping the edit).
        #expect(harness.started.current == ["a", "b", "set-band bass", "c"])
        harness.queue.stop()
    }

    @Test func aCancelledCallerStopsWaitingAtOnce() async throws {
        let harness = try Harness()
        let stuck = harness.submit(.reload(caller: "stuck"))
        #expect(await Wait.until(within: 10) { harness.started.current == ["stuck"] })
        let waiting = harness.submit(.reload(caller: "next"))
        #expect(await harness.waitUntil(waiting: 1))
        waiting.cancel()
        #expect(await waiting.value == .failure("cancelled while waiting for the reload thread"))
        stuck.cancel()
        #expect(await stuck.value == .failure("cancelled while waiting for the reload thread"), "while its reload is under way")
        harness.release()
        harness.queue.stop()
    }

    @Test func stoppingAnswersTheCallersStillWaiting() async throws {
        let harness = try Harness()
        let stuck = harness.submit(.reload(caller: "stuck"))
        #expect(await Wait.until(within: 10) { harness.started.current == ["stuck"] })
        let waiting = harness.submit(.setBand(.mid, lower: 300, upper: 3_000))
        #expect(await harness.waitUntil(waiting: 1))
        harness.queue.stop()
        #expect(await waiting.value == .failure("the daemon is stopping"))
        harness.release()
        #expect(await stuck.value == .success(.string("stuck")), "the request under way still finishes")
        #expect(await harness.submit(.reload(caller: "late")).value == .failure("the daemon is stopping"))
    }
}
