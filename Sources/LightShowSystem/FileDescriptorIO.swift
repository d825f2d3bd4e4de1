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
        /// The deadline passed with `written` bytes through (only with a deadline).
        case timedOut(written: Int)
    }

    /// Writes all of `bytes`. A non-blocking descriptor that is full is waited on with poll until `deadline`
    /// (monotonic nanoseconds; nil = no limit). Other errors throw.
    public static func writeAll(
        _ fd: Int32, _ bytes: UnsafeRawBufferPointer, deadline: UInt64? = nil
    ) throws(SystemCallError) -> WriteOutcome {
        guard let base = bytes.baseAddress else { return .complete }
        var offset = 0
        while offset < bytes.count {
            let written = write(fd, base + offset, bytes.count - offset)
            if written > 0 {
                offset += written
                continue
            }
            let code = written < 0 ? errno : EAGAIN
            switch code {
            case EINTR:
                continue
            case EAGAIN:
                if let deadline, MonotonicClock.now() >= deadline { return .timedOut(written: offset) }
                var room = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                let milliseconds = deadline.map { Poll.milliseconds(until: $0) } ?? -1
                if poll(&room, 1, milliseconds) == 0, deadline != nil { return .timedOut(written: offset) }
            case EPIPE, ECONNRESET:
                return .closed(written: offset)
            default:
                throw SystemCallError("write", code: code)
            }
        }
        return .complete
    }

    /// `writeAll` of an array.
    public static func writeAll(_ fd: Int32, _ bytes: [UInt8], deadline: UInt64? = nil) throws(SystemCallError) -> WriteOutcome {
        let result = bytes.withUnsafeBytes { raw in Result { () throws(SystemCallError) in try writeAll(fd, raw, deadline: deadline) } }
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
