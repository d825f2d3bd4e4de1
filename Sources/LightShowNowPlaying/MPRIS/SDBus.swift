import CSystemd
import LightShowCore
import LightShowSystem
#if canImport(Glibc)
import Glibc
#endif

/// A failed sd-bus call: what was asked and libsystemd's `-errno` (or the peer's D-Bus error).
struct SDBusError: Error, CustomStringConvertible {
    var description: String
    /// The errno (positive) libsystemd returned.
    var code: Int32

    init(_ operation: String, code: Int32) {
        self.code = code < 0 ? -code : code
        description = "\(operation): \(SystemCallError.message(for: self.code))"
    }

    /// The peer didn't answer in time.
    var timedOut: Bool { code == ETIMEDOUT }

    init(_ operation: String, error: inout sd_bus_error, code: Int32) {
        let peer = error.message.map { SafeText.sanitized(String(cString: $0), limit: 200) }
        sd_bus_error_free(&error)
        self.init(operation, code: code)
        if let peer { description = "\(operation): \(peer)" }
    }
}

/// One connection to the session bus, owned by the thread that uses it (a bus is not thread-safe): opened with
/// `sd_bus_open_user`, closed in `deinit`. Only sd-bus's non-variadic calls: Swift can't import the others.
final class SDBus {
    let bus: OpaquePointer

    /// Connects to the user's session bus (`DBUS_SESSION_BUS_ADDRESS`, else `$XDG_RUNTIME_DIR/bus`).
    init() throws(SDBusError) {
        var bus: OpaquePointer?
        let result = sd_bus_open_user(&bus)
        guard result >= 0, let bus else { throw SDBusError("connecting to the session bus", code: result) }
        self.bus = bus
        _ = sd_bus_set_description(bus, "lightshow-mpris")
    }

    deinit {
        _ = sd_bus_flush_close_unref(bus)
    }

    /// A basic argument of a method call.
    enum Argument {
        case string(String)
    }

    /// Calls a method and waits at most `timeout` for the reply; a peer that never answers can't hang the thread.
    func call(
        _ destination: String, _ path: String, _ interface: String, _ member: String,
        _ arguments: [Argument] = [], timeout: Duration = .seconds(1)
    ) throws(SDBusError) -> SDBusMessage {
        let message = try methodCall(destination, path, interface, member, arguments)
        var error = sd_bus_error(name: nil, message: nil, _need_free: 0)
        var reply: OpaquePointer?
        let microseconds = UInt64(max(1, timeout.clampedNanoseconds / 1_000))
        let result = sd_bus_call(bus, message.message, microseconds, &error, &reply)
        guard result >= 0, let reply else { throw SDBusError("\(member) on \(destination)", error: &error, code: result) }
        sd_bus_error_free(&error)
        return SDBusMessage(adopting: reply)
    }

    /// Sends a method call without waiting for its reply (a player's answer to Play changes nothing here).
    func send(_ destination: String, _ path: String, _ interface: String, _ member: String) throws(SDBusError) {
        let message = try methodCall(destination, path, interface, member, [])
        let result = sd_bus_send(bus, message.message, nil)
        guard result >= 0 else { throw SDBusError("sending \(member) to \(destination)", code: result) }
    }

    private func methodCall(
        _ destination: String, _ path: String, _ interface: String, _ member: String, _ arguments: [Argument]
    ) throws(SDBusError) -> SDBusMessage {
        var created: OpaquePointer?
        var result = sd_bus_message_new_method_call(bus, &created, destination, path, interface, member)
        guard result >= 0, let created else { throw SDBusError("preparing \(member)", code: result) }
        let message = SDBusMessage(adopting: created)
        for argument in arguments {
            switch argument {
            case .string(let text):
                result = text.withCString { sd_bus_message_append_basic(created, CChar(UInt8(ascii: "s")), $0) }
            }
            guard result >= 0 else { throw SDBusError("preparing \(member)", code: result) }
        }
        return message
    }

    /// Calls `handler` (on this thread, inside `process()`) for each matching signal, for the bus's lifetime.
    func matchSignal(
        sender: String?, path: String?, interface: String, member: String,
        handler: sd_bus_message_handler_t, userdata: UnsafeMutableRawPointer
    ) throws(SDBusError) {
        let result = sd_bus_match_signal(bus, nil, sender, path, interface, member, handler, userdata)
        guard result >= 0 else { throw SDBusError("subscribing to \(member)", code: result) }
    }

    /// Handles everything that has arrived (signals go to their handlers). Throws when the connection is gone.
    func processAll() throws(SDBusError) {
        // Bounded: a peer flooding the bus can't keep this thread from its other work.
        for _ in 0..<256 {
            let result = sd_bus_process(bus, nil)
            if result < 0 { throw SDBusError("reading the session bus", code: result) }
            if result == 0 { return }
        }
    }

    var fileDescriptor: Int32 { sd_bus_get_fd(bus) }
    var pollEvents: Int16 { Int16(truncatingIfNeeded: max(0, sd_bus_get_events(bus))) }

    /// sd-bus's own next deadline (CLOCK_MONOTONIC µs), if it has one.
    var deadlineMicroseconds: UInt64? {
        var microseconds: UInt64 = 0
        guard sd_bus_get_timeout(bus, &microseconds) >= 0, microseconds != UInt64.max else { return nil }
        return microseconds
    }
}
