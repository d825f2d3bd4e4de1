import LightShowCore
@testable import LightShowSystem
import Testing
import TestSupport

@Suite struct BoundedQueueTests {
    @Test func queuedItemsArriveInOrderThenTheError() async throws {
        let queue = BoundedQueue<Int>(capacity: 4)
        for index in 0..<3 { #expect(queue.push(index)) }
        queue.finish(throwing: LightShowError("gone", exitStatus: .ioError))
        #expect(!queue.push(3), "a finished queue takes nothing more")
        var items: [Int] = []
        do {
            while let item = try await queue.next() { items.append(item) }
            Issue.record("the error was not thrown")
        } catch let error as LightShowError {
            #expect(error.message == "gone")
        }
        #expect(items == [0, 1, 2], "items queued before the error still arrive")
    }

    @Test func aFullQueueHoldsAThreadProducerUntilTheConsumerTakes() async throws {
        let queue = BoundedQueue<Int>(capacity: 2)
        let sent = Locked(0)
        try DedicatedThread.start(name: "test-producer") {
            for index in 0..<5 where queue.push(index) { sent.withLock { $0 += 1 } }
            queue.finish()
        }
        #expect(await Wait.until(within: 10) { sent.current == 2 })
        #expect(sent.current == 2, "the third push waits for room")
        var received: [Int] = []
        while let item = try await queue.next() { received.append(item) }
        #expect(received == [0, 1, 2, 3, 4])
    }

    @Test func aThreadConsumerDrainsAFinishedQueueThenSeesTheEnd() throws {
        let queue = BoundedQueue<Int>(capacity: 3)
        for index in 0..<3 { queue.push(index) }
        queue.finish()
        #expect(queue.pop() == 0)
        #expect(queue.pop() == 1)
        #expect(queue.pop() == 2)
        #expect(queue.pop() == nil)
    }

    @Test func aTimedPopEndsAtItsDeadlineWhenNothingComes() throws {
        let queue = BoundedQueue<Int>(capacity: 1)
        let start = MonotonicClock.now()
        let result = queue.pop(until: start + 50_000_000)
        #expect(result == nil, "timed out, not ended")
        #expect(MonotonicClock.now() - start >= 50_000_000)
        queue.push(7)
        #expect(queue.pop(until: MonotonicClock.now() + 1_000_000_000) == .some(7))
        queue.finish()
        #expect(queue.pop(until: MonotonicClock.now() + 1_000_000_000) == .some(nil), "ended, not timed out")
    }

    @Test func closingDiscardsWhatIsQueuedAndRefusesPushes() throws {
        let queue = BoundedQueue<Int>(capacity: 3)
        queue.push(1)
        queue.push(2)
        queue.close(discardingPending: true)
        #expect(queue.isClosed)
        #expect(queue.pop() == nil)
        #expect(!queue.push(3))
        #expect(queue.tryPush(3) == .closed)
    }

    @Test func closingWakesAThreadProducerWaitingForRoom() async throws {
        let queue = BoundedQueue<Int>(capacity: 1)
        queue.push(0)
        let refused = Locked(false)
        try DedicatedThread.start(name: "test-producer") {
            let pushed = queue.push(1)
            refused.withLock { $0 = !pushed }
        }
        queue.close()
        #expect(await Wait.until(within: 10) { refused.current })
    }

    @Test func anAsyncProducerIsToldWhenThereIsRoom() async throws {
        let queue = BoundedQueue<Int>(capacity: 1)
        #expect(queue.tryPush(0) == .pushed)
        #expect(queue.tryPush(1) == .full)
        let woken = Locked(false)
        queue.whenSpace { woken.withLock { $0 = true } }
        #expect(!woken.current, "no room yet")
        #expect(queue.pop() == 0)
        #expect(woken.current, "taking an item makes room")
        #expect(queue.tryPush(1) == .pushed)
    }

    @Test func cancellingTheAsyncConsumerClosesTheQueue() async throws {
        let queue = BoundedQueue<Int>(capacity: 2)
        let consumer = Task { try await queue.next() }
        consumer.cancel()
        #expect(try await consumer.value == nil)
        #expect(queue.isClosed)
        #expect(!queue.push(1), "the producer learns that nobody listens")
    }

    /// Two tasks awaiting the same ending (a web server's `stop()` from a reload and from shutdown): the item goes to
    /// one, the end to the other, and neither is left waiting.
    @Test func twoAsyncConsumersWaitingAtOnceBothHearBack() async throws {
        let queue = BoundedQueue<Int>(capacity: 1)
        let answered = Locked(0)
        let taken = Locked<[Int?]>([])
        for _ in 0..<2 {
            Task {
                let item = try? await queue.next()
                taken.withLock { $0.append(item ?? nil) }
                answered.withLock { $0 += 1 }
            }
        }
        #expect(await Wait.until(within: 10) { queue.waitingAsyncConsumers == 2 })
        #expect(queue.push(7))
        queue.finish()
        #expect(await Wait.until(within: 10) { answered.current == 2 })
        #expect(taken.withLock { $0.compactMap { $0 } } == [7])
    }
}
