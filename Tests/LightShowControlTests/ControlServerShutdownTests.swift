import Foundation
import LightShowCore
import LightShowSystem
import Synchronization
import Testing
import TestSupport
@testable import LightShowControl

/// `shutdown` is called from async code (the daemon's service): it must never hold a thread of the cooperative
/// pool while the server's loop winds down.
@Suite struct ControlServerShutdownTests {
    @Test func shutdownFromEveryPoolThreadLeavesThePoolFree() async throws {
        let fixture = try ServerFixture()
        let server = fixture.server
        // The loop's thread is held (in its announcement of a new client) until the pool has been seen free.
        let gate = BoundedQueue<Void>(capacity: 1)
        let held = BoundedQueue<Void>(capacity: 1)
        let holding = Atomic<Bool>(false)
        server.countChanges.listen {
            guard !holding.exchange(true, ordering: .relaxed) else { return }
            _ = held.tryPush(())
            _ = gate.pop(until: MonotonicClock.now() &+ 60_000_000_000)
        }
        let client = try await fixture.client()
        #expect(try await OffPool.run { held.pop(until: MonotonicClock.now() &+ 30_000_000_000) != nil })

        // As many shutdowns as the pool has threads; then, off the pool, a task that needs a pool thread.
        let calling = BoundedQueue<Void>(capacity: CooperativePool.width)
        let free = try await CooperativePool.staysFree(reached: calling, release: { _ = gate.tryPush(()) }) {
            _ = calling.tryPush(())
            server.shutdown()
        }
        #expect(free, "a task waited for a pool thread while shutdown ran on every one")
        // Gone at once, and the loop ends (closing the client) once let go; stopped() hears of it.
        #expect(access(fixture.path, F_OK) != 0)
        await server.stopped()
        #expect(try await client.readLine() == nil)
    }
}
