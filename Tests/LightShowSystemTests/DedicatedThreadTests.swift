import LightShowCore
import LightShowSystem
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite struct DedicatedThreadTests {
    /// The thread's name as the kernel has it (what `top -H` shows).
    private static func currentThreadName() -> String {
        let bytes = (try? SmallFile(path: "/proc/thread-self/comm").read(limit: 64, followingSymlinks: true)) ?? nil
        return String(decoding: (bytes ?? []).filter { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
    }

    /// The body runs on a new thread, named as asked and cut to the kernel's 15 bytes.
    @Test func startRunsTheBodyOnANamedThread() throws {
        let seen = Mutex<(name: String, thread: pthread_t)?>(nil)
        let done = try WakeSignal()
        try DedicatedThread.start(name: "test-a-rather-long-thread-name") {
            seen.withLock { $0 = (Self.currentThreadName(), pthread_self()) }
            done.signal()
        }
        #expect(done.wait(for: .seconds(10)))
        let result = try #require(seen.withLock { $0 })
        #expect(result.name == "test-a-rather-l")
        #expect(pthread_equal(result.thread, pthread_self()) == 0)
    }

    @Test func runReturnsTheBodysValueFromItsThread() async throws {
        let name = try await DedicatedThread.run(name: "test-run") { () throws(LightShowError) in Self.currentThreadName() }
        #expect(name == "test-run")
    }

    @Test func runThrowsTheBodysError() async {
        await #expect(throws: LightShowError("no lookup", exitStatus: .noInput)) {
            try await DedicatedThread.run(name: "test-run") { () throws(LightShowError) -> Int in
                throw LightShowError("no lookup", exitStatus: .noInput)
            }
        }
    }

    /// A task cancelled before the work began gets the cancellation, and the work never runs.
    @Test func aTaskCancelledBeforeStartRunsNothing() async throws {
        let ran = Locked(false)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await DedicatedThread.run(name: "test-cancel") { () throws(LightShowError) in
                ran.withLock { $0 = true }
            }
        }
        await #expect(throws: LightShowError.self) { try await task.value }
        #expect(!ran.current)
    }

    /// Cancelling ends the wait at once, while the work is still blocked; the work then finishes on its own.
    @Test func cancellingEndsTheWaitWhileTheWorkGoesOn() async throws {
        let release = try WakeSignal()
        let entered = try WakeSignal()
        let finished = try WakeSignal()
        let task = Task {
            try await DedicatedThread.run(name: "test-blocked") { () throws(LightShowError) -> Int in
                entered.signal()
                _ = release.wait(for: .seconds(30))
                finished.signal()
                return 1
            }
        }
        // Waited for off the cooperative pool, which the task itself needs to start.
        #expect(try await DedicatedThread.run(name: "test-waiter") { entered.wait(for: .seconds(10)) })
        task.cancel()
        await #expect(throws: LightShowError.self) { try await task.value }
        #expect(!finished.wait(for: .zero))
        release.signal()
        #expect(try await DedicatedThread.run(name: "test-waiter") { finished.wait(for: .seconds(10)) })
    }
}
