import LightShowCore
import LightShowSystem
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite struct WorkerThreadTests {
    private struct Failure: Error {}

    @Test func jobsRunInOrderOnOneThreadOfItsOwn() async throws {
        let worker = try WorkerThread(name: "ls-test-worker")
        var threads: [UInt] = []
        var order: [Int] = []
        for index in 0..<20 {
            let (thread, value) = try await worker.complete { (UInt(pthread_self()), index) }
            threads.append(thread)
            order.append(value)
        }
        #expect(order == Array(0..<20))
        #expect(Set(threads).count == 1, "jobs ran on \(Set(threads).count) threads")
        let caller = await withCheckedContinuation { continuation in continuation.resume(returning: UInt(pthread_self())) }
        #expect(threads.first != caller)
    }

    @Test func aJobsErrorReachesItsCallerAndTheThreadGoesOn() async throws {
        let worker = try WorkerThread(name: "ls-test-worker")
        await #expect(throws: Failure.self) { try await worker.complete { () throws -> Int in throw Failure() } }
        #expect(try await worker.complete { 42 } == 42)
    }
}
