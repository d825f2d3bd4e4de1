import LightShowCore
import LightShowSystem
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Reads and writes against real pipes and sockets; the peer ends use the raw calls, independent of the code tested.
@Suite struct FileDescriptorIOTests {
    /// A pipe's two ends; `nonBlocking` for the write end (and the read end).
    private struct Pipe: ~Copyable {
        let read: Int32
        let write: Int32
        init(nonBlocking: Bool = false) throws {
            var fds: [Int32] = [-1, -1]
            try #require(pipe(&fds) == 0)
            read = fds[0]
            write = fds[1]
            if nonBlocking { makeNonBlocking(read); makeNonBlocking(write) }
        }
        deinit { close(read); close(write) }
    }

    /// Everything readable now from a non-blocking `fd`.
    private func drain(_ fd: Int32) -> [UInt8] {
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }  // os-idiom: the test's independent peer
            guard count > 0 else { return result }
            result += chunk[0..<count]
        }
    }

    private func pattern(_ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) } }

    @Test func readGivesBytesThenWouldBlockThenEndOfFile() throws {
        let pipe = try Pipe(nonBlocking: true)
        var buffer = [UInt8](repeating: 0, count: 16)
        #expect(try FileDescriptorIO.read(pipe.read, into: &buffer) == .wouldBlock)
        #expect(try FileDescriptorIO.writeAll(pipe.write, [1, 2, 3]) == .complete)
        #expect(try FileDescriptorIO.read(pipe.read, into: &buffer, at: 4) == .bytes(3))
        #expect(buffer[4..<7] == [1, 2, 3])
        var other: [Int32] = [-1, -1]
        try #require(Glibc.pipe(&other) == 0)
        close(other[1])
        #expect(try FileDescriptorIO.read(other[0], into: &buffer) == .endOfFile)
        close(other[0])
    }

    @Test func aFailedReadThrowsWithTheCall() {
        var buffer = [UInt8](repeating: 0, count: 4)
        #expect(throws: SystemCallError("read", code: EBADF)) { try FileDescriptorIO.read(-1, into: &buffer) }
    }

    @Test func readToEndStopsJustPastTheLimit() throws {
        let pipe = try Pipe(nonBlocking: true)
        let bytes = pattern(70_000)
        #expect(try FileDescriptorIO.writeAll(pipe.write, Array(bytes[0..<100])) == .complete)
        // Under the limit: all of it (the empty non-blocking pipe ends the read).
        #expect(try FileDescriptorIO.readToEnd(pipe.read, limit: 1_000) == Array(bytes[0..<100]))
        #expect(try FileDescriptorIO.writeAll(pipe.write, Array(bytes[0..<60_000])) == .complete)
        // Over it: limit + 1 bytes, so the caller can tell, and the rest stays in the pipe.
        #expect(try FileDescriptorIO.readToEnd(pipe.read, limit: 50_000) == Array(bytes[0..<50_001]))
        #expect(drain(pipe.read) == Array(bytes[50_001..<60_000]))
    }

    @Test func writeSomeSaysWhenTheDescriptorIsFull() throws {
        let pipe = try Pipe(nonBlocking: true)
        let bytes = pattern(1 << 20)
        let first = try bytes.withUnsafeBytes { try FileDescriptorIO.writeSome(pipe.write, $0) }
        guard case .wrote(let count) = first else { Issue.record("wrote nothing: \(first)"); return }
        #expect(count > 0 && count < bytes.count)
        #expect(try bytes.withUnsafeBytes { try FileDescriptorIO.writeSome(pipe.write, $0) } == .wouldBlock)
        #expect(drain(pipe.read) == Array(bytes[0..<count]))
    }

    /// A full non-blocking pipe is waited on, not spun on, and every byte arrives in order once the reader reads.
    @Test func writeAllWaitsForASlowReader() throws {
        let pipe = try Pipe(nonBlocking: true)
        let bytes = pattern(1 << 20)
        let reader = pipe.read
        let received = Mutex<[UInt8]>([])
        let done = try WakeSignal()
        try DedicatedThread.start(name: "test-reader") {
            var got: [UInt8] = []
            while got.count < bytes.count {
                var ready = pollfd(fd: reader, events: Int16(POLLIN), revents: 0)
                _ = poll(&ready, 1, 1_000)  // os-idiom: the test's independent peer
                got += drain(reader)
            }
            received.withLock { $0 = got }
            done.signal()
        }
        #expect(try FileDescriptorIO.writeAll(pipe.write, bytes) == .complete)
        #expect(done.wait(for: .seconds(10)))
        #expect(received.withLock { $0 } == bytes)
    }

    @Test func aDeadlineEndsTheWaitWithWhatWasWritten() throws {
        let pipe = try Pipe(nonBlocking: true)
        let bytes = pattern(1 << 20)
        let started = MonotonicClock.now()
        let outcome = try FileDescriptorIO.writeAll(pipe.write, bytes, deadline: started + 50_000_000)
        #expect(MonotonicClock.now() >= started + 50_000_000)
        guard case .timedOut(let written) = outcome else { Issue.record("\(outcome)"); return }
        #expect(drain(pipe.read) == Array(bytes[0..<written]))
    }

    @Test func aStallEndsTheWait() throws {
        let pipe = try Pipe(nonBlocking: true)
        let outcome = try FileDescriptorIO.writeAll(pipe.write, pattern(1 << 20), stall: 30_000_000)
        guard case .timedOut(let written) = outcome else { Issue.record("\(outcome)"); return }
        #expect(written > 0)
    }

    /// A wake-up on `interrupt` asks `shouldStop`; a yes ends the write, with the count of what went.
    @Test func anInterruptThatSaysStopEndsTheWrite() throws {
        let pipe = try Pipe(nonBlocking: true)
        let wake = try WakeSignal()
        wake.signal()
        var asked = 0
        let outcome = try FileDescriptorIO.writeAll(pipe.write, pattern(1 << 20), interrupt: wake.readFD) {
            asked += 1
            wake.consume()
            return true
        }
        #expect(asked == 1)
        guard case .interrupted(let written) = outcome else { Issue.record("\(outcome)"); return }
        #expect(drain(pipe.read).count == written)
    }

    /// A socket whose peer has gone is `.closed`, with no SIGPIPE (which would end this test process).
    @Test func aSocketWhosePeerWentIsClosed() throws {
        var pair: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        defer { close(pair[0]) }
        close(pair[1])
        #expect(try FileDescriptorIO.writeAll(pair[0], [1, 2, 3], kind: .socket) == .closed(written: 0))
        #expect(try [UInt8]([1]).withUnsafeBytes { try FileDescriptorIO.writeSome(pair[0], $0, kind: .socket) } == .closed)
    }

    /// A signal that interrupts a blocked read (EINTR) doesn't end it: the read returns the bytes that come later.
    @Test func aSignalDoesNotEndABlockedRead() throws {
        let pipe = try Pipe()
        let reader = pipe.read
        let call = try InterruptibleCall { () -> FileDescriptorIO.ReadOutcome? in
            var buffer = [UInt8](repeating: 0, count: 8)
            return try? FileDescriptorIO.read(reader, into: &buffer)
        }
        #expect(call.interrupt(times: 5) >= 5)
        #expect(call.result == nil)
        #expect(try FileDescriptorIO.writeAll(pipe.write, [9, 8]) == .complete)
        #expect(call.waitForResult() == .bytes(2))
    }
}
