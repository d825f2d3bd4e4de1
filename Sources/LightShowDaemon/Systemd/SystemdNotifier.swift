public import LightShowSystem
import LightShowAudio
import LightShowCore
#if canImport(Glibc)
import Glibc
#endif

/// Speaks systemd's sd_notify protocol directly: one datagram per message to `$NOTIFY_SOCKET`
/// (a path, or `@name` in the abstract namespace). Without `$NOTIFY_SOCKET` every call does nothing.
public struct SystemdNotifier: Sendable {
    /// The socket named by `$NOTIFY_SOCKET`, or nil when not run by systemd with `Type=notify`.
    public let socket: String?
    /// How often to send `WATCHDOG=1`: half of `$WATCHDOG_USEC`, or nil when no watchdog is set for this process.
    public let watchdogInterval: Duration?

    public init(environment: [String: String], processID: Int32? = nil) {
        let processID = processID ?? getpid()
        socket = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        watchdogInterval = Self.watchdogInterval(environment: environment, processID: processID)
    }

    public var isEnabled: Bool { socket != nil }

    public func ready() throws(SystemCallError) { try send("READY=1") }
    public func status(_ text: String) throws(SystemCallError) { try send("STATUS=\(text)") }
    public func watchdog() throws(SystemCallError) { try send("WATCHDOG=1") }
    public func stopping() throws(SystemCallError) { try send("STOPPING=1") }

    /// `RELOADING=1` with the `MONOTONIC_USEC` stamp systemd needs to match it; send `ready()` when done.
    public func reloading() throws(SystemCallError) {
        try send("RELOADING=1\nMONOTONIC_USEC=\(Self.monotonicMicroseconds())")
    }

    /// Sends `message` (newline-separated `KEY=VALUE` assignments) as one datagram.
    public func send(_ message: String) throws(SystemCallError) {
        guard let socket else { return }
        // Never waits: a receiver that stopped reading (its queue holds only ~10 datagrams) must not stall the
        // daemon's tasks. A message that can't go now fails with EAGAIN and the caller carries on.
        try UnixSocket.sendDatagram(Array(message.utf8), to: socket)
    }

    /// Half of `$WATCHDOG_USEC`, as sd_watchdog_enabled advises, but at least a millisecond (`WATCHDOG_USEC=1`
    /// would otherwise make the ping loop spin); nil when unset, invalid, or meant for another process
    /// (`$WATCHDOG_PID`).
    static func watchdogInterval(environment: [String: String], processID: Int32) -> Duration? {
        guard let text = environment["WATCHDOG_USEC"], let microseconds = UInt64(text), microseconds > 0 else {
            return nil
        }
        if let pid = environment["WATCHDOG_PID"], Int32(pid) != processID { return nil }
        return .microseconds(Int64(clamping: max(1000, microseconds / 2)))
    }

    static func monotonicMicroseconds() -> UInt64 {
        MonotonicClock.now() / 1000
    }
}
