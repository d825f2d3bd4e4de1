#if canImport(Glibc)
import Glibc
#endif
import LightShowCore

/// Reads and writes on a descriptor with EINTR and EAGAIN handled in this one place.
public enum FileDescriptorIO {
    /// How bytes go out: `write(2)`, or on a socket `send(2)` with MSG_NOSIGNAL, so a peer that has gone is EPIPE
    /// rather than a SIGPIPE (for code that can't rely on the process ignoring it).
    public enum Kind: Sendable {
        case file
        case socket
    }

    /// What one write gave.
    public enum WriteSomeOutcome: Equatable, Sendable {
        /// This many bytes (at least one) went.
        case wrote(Int)
        /// No room now (a non-blocking descriptor, or a blocking socket's send timeout).
        case wouldBlock
        /// The reader went away (EPIPE or ECONNRESET).
        case closed
    }

    /// One write of as much of `bytes` as the descriptor takes now, retried on EINTR. Other errors throw.
    public static func writeSome(
        _ fd: Int32, _ bytes: UnsafeRawBufferPointer, kind: Kind = .file
    ) throws(SystemCallError) -> WriteSomeOutcome {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return .wrote(0) }
        while true {
            let written = switch kind {
            case .file: write(fd, base, bytes.count)
            case .socket: send(fd, base, bytes.count, Int32(MSG_NOSIGNAL))
            }
            if written > 0 { return .wrote(written) }
            let code = written < 0 ? errno : EAGAIN
            switch code {
            case EINTR: continue
            case EAGAIN: return .wouldBlock
            case EPIPE, ECONNRESET: return .closed
            default: throw SystemCallError(kind == .file ? "write" : "send", code: code)
            }
        }
    }

    /// One write from a signal handler: async-signal-safe (no allocation, no lock), `errno` left as it was, and
    /// nothing retried or reported (a full wake-up pipe already says what the byte would).
    public static func writeFromSignalHandler(_ fd: Int32, _ base: UnsafeRawPointer?, _ count: Int) {
        let saved = errno
        _ = write(fd, base, count)
        errno = saved
    }
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
        _ fd: Int32, _ bytes: UnsafeRawBufferPointer, kind: Kind = .file, deadline: UInt64? = nil, stall: UInt64? = nil,
        interrupt: Int32 = -1, shouldStop: () -> Bool = { false }
    ) throws(SystemCallError) -> WriteOutcome {
        guard let base = bytes.baseAddress else { return .complete }
        var offset = 0
        var progressed = MonotonicClock.now()
        while offset < bytes.count {
            switch try writeSome(fd, UnsafeRawBufferPointer(start: base + offset, count: bytes.count - offset), kind: kind) {
            case .wrote(let written):
                offset += written
                if stall != nil { progressed = MonotonicClock.now() }
            case .wouldBlock:
                let limit = [deadline, stall.map { progressed &+ $0 }].compactMap { $0 }.min()
                if let limit, MonotonicClock.now() >= limit { return .timedOut(written: offset) }
                var waits = [
                    pollfd(fd: fd, events: Int16(POLLOUT), revents: 0),
                    pollfd(fd: interrupt, events: Int16(POLLIN), revents: 0),
                ]
                let ready = Poll.wait(&waits, count: 2, until: limit)
                if ready < 0 { throw SystemCallError.current("poll") }
                if waits[1].revents != 0 && shouldStop() { return .interrupted(written: offset) }
            case .closed:
                return .closed(written: offset)
            }
        }
        return .complete
    }

    /// `writeAll` of an array.
    public static func writeAll(
        _ fd: Int32, _ bytes: [UInt8], kind: Kind = .file, deadline: UInt64? = nil, stall: UInt64? = nil,
        interrupt: Int32 = -1, shouldStop: () -> Bool = { false }
    ) throws(SystemCallError) -> WriteOutcome {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(SystemCallError) in
                try writeAll(fd, raw, kind: kind, deadline: deadline, stall: stall, interrupt: interrupt, shouldStop: shouldStop)
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

    /// One read into `buffer`, retried on EINTR. On a socket this is `recv` without flags; a blocking socket's
    /// receive timeout comes back as `.wouldBlock`.
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

    /// One read into `buffer` at `offset`, as `read(_:into:)`.
    public static func read(_ fd: Int32, into buffer: inout [UInt8], at offset: Int = 0) throws(SystemCallError) -> ReadOutcome {
        let result = buffer.withUnsafeMutableBytes { raw in
            Result { () throws(SystemCallError) in try read(fd, into: UnsafeMutableRawBufferPointer(rebasing: raw[offset...])) }
        }
        return try result.get()
    }

    /// Reads until end of file, or until more than `limit` bytes are in (then the result is longer than `limit`, so
    /// the caller can tell, and the rest is left unread). A non-blocking descriptor with nothing to read now ends it too.
    public static func readToEnd(_ fd: Int32, limit: Int) throws(SystemCallError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: min(limit + 1, 65_536))
        var total = 0
        while total <= limit {
            if total == bytes.count { bytes += [UInt8](repeating: 0, count: min(limit + 1 - total, bytes.count)) }
            guard case .bytes(let count) = try read(fd, into: &bytes, at: total) else { break }
            total += count
        }
        return Array(bytes.prefix(total))
    }
}
