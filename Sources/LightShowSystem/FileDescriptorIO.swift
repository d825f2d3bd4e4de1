#if canImport(Glibc)
public import Glibc
#endif
import LightShowCore

/// Reads and writes on a descriptor with EINTR and EAGAIN handled in this one place.
public enum FileDescriptorIO {
    /// How a write ended.
    public enum WriteOutcome: Equatable, Sendable {
        /// Every byte was written.
        case complete
        /// The reader went away (EPIPE or ECONNRESET); `written` bytes got through.
        case closed(written: Int)
        /// The deadline passed, or the reader took nothing for `stall`, with `written` bytes through (only with
        /// a deadline or a stall limit).
        case timedOut(written: Int)
        /// `interrupt` became readable and `shouldStop` said to give up, with `written` bytes through.
        case interrupted(written: Int)
    }

    /// Writes all of `bytes`. A non-blocking descriptor that is full is waited on with poll until `deadline`
    /// (monotonic nanoseconds; nil = no limit), or until it has taken nothing for `stall` nanoseconds. While
    /// waiting, `interrupt` (a wake-up's read end, or -1) is polled too: when it is readable `shouldStop` is asked
    /// (it must drain it) whether to give up. Other errors throw. A blocking descriptor waits in `write` itself,
    /// beyond all of these.
    public static func writeAll(
        _ fd: Int32, _ bytes: UnsafeRawBufferPointer, deadline: UInt64? = nil, stall: UInt64? = nil,
        interrupt: Int32 = -1, shouldStop: () -> Bool = { false }
    ) throws(SystemCallError) -> WriteOutcome {
        guard let base = bytes.baseAddress else { return .complete }
        var offset = 0
        var progressed = MonotonicClock.now()
        while offset < bytes.count {
            let written = write(fd, base + offset, bytes.count - offset)
            if written > 0 {
                offset += written
                if stall != nil { progressed = MonotonicClock.now() }
                continue
            }
            let code = written < 0 ? errno : EAGAIN
            switch code {
            case EINTR:
                continue
            case EAGAIN:
                let limit = [deadline, stall.map { progressed &+ $0 }].compactMap { $0 }.min()
                if let limit, MonotonicClock.now() >= limit { return .timedOut(written: offset) }
                var waits = [
                    pollfd(fd: fd, events: Int16(POLLOUT), revents: 0),
                    pollfd(fd: interrupt, events: Int16(POLLIN), revents: 0),
                ]
                let ready = Poll.wait(&waits, count: 2, until: limit)
                if ready < 0 { throw SystemCallError("poll") }
                if waits[1].revents != 0 && shouldStop() { return .interrupted(written: offset) }
            case EPIPE, ECONNRESET:
                return .closed(written: offset)
            default:
                throw SystemCallError("write", code: code)
            }
        }
        return .complete
    }

    /// `writeAll` of an array.
    public static func writeAll(
        _ fd: Int32, _ bytes: [UInt8], deadline: UInt64? = nil, stall: UInt64? = nil,
        interrupt: Int32 = -1, shouldStop: () -> Bool = { false }
    ) throws(SystemCallError) -> WriteOutcome {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(SystemCallError) in
                try writeAll(fd, raw, deadline: deadline, stall: stall, interrupt: interrupt, shouldStop: shouldStop)
            }
        }
        return try result.get()
    }

    /// What one read gave.
    public enum ReadOutcome: Equatable, Sendable {
        case bytes(Int)
        case endOfFile
        /// Nothing to read now (non-blocking descriptor).
        case wouldBlock
    }

    /// One read into `buffer`, retried on EINTR.
    public static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemCallError) -> ReadOutcome {
        while true {
            let count = Glibc.read(fd, buffer.baseAddress, buffer.count)
            if count > 0 { return .bytes(count) }
            if count == 0 { return .endOfFile }
            switch errno {
            case EINTR: continue
            case EAGAIN: return .wouldBlock
            case let code: throw SystemCallError("read", code: code)
            }
        }
    }
}
