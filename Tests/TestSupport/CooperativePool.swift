import Foundation
import LightShowSystem

/// Checks the rule that blocking work never holds a thread of Swift's cooperative pool: as many tasks as the pool
/// has threads each run the work under test; once every one has reached the part that blocks (the work says so on
/// `reached`, and stays there until `release`), a new task must still find a pool thread.
public enum CooperativePool {
    /// The pool's threads: one per processor.
    public static var width: Int { ProcessInfo.processInfo.activeProcessorCount }

    /// True when a new task ran within 20 s while `width` runs of `work` were held: long, because other tests
    /// running at once may hold pool threads for seconds; work held on the pool holds it until released. The work
    /// is released then, whatever happened, and every run has returned when this does.
    public static func staysFree(
        reached: BoundedQueue<Void>, release: @escaping @Sendable () -> Void, while work: @escaping @Sendable () async -> Void
    ) async throws -> Bool {
        let width = width
        let probe = BoundedQueue<Void>(capacity: 1)
        let verdict = BoundedQueue<Bool>(capacity: 1)
        // Judged from a thread of its own: a starved pool could not run the judge.
        try DedicatedThread.start(name: "ls-test-pool") {
            let deadline = MonotonicClock.now() &+ 10_000_000_000
            var held = 0
            while held < width, reached.pop(until: deadline) != nil { held += 1 }
            Task.detached { _ = probe.tryPush(()) }
            _ = verdict.tryPush(probe.pop(until: MonotonicClock.now() &+ 20_000_000_000) != nil)
            release()
        }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<width { group.addTask { await work() } }
        }
        return try await OffPool.run { verdict.pop(until: MonotonicClock.now() &+ 60_000_000_000) ?? nil } == true
    }
}
