import CSystemd

/// A D-Bus message: a reply we own, or a signal borrowed inside its handler (referenced while wrapped).
/// Unreferenced in `deinit`.
final class SDBusMessage {
    let message: OpaquePointer

    /// Takes over a reference the caller holds (a reply, a new message).
    init(adopting message: OpaquePointer) {
        self.message = message
    }

    /// Takes a reference of its own on a message sd-bus lends to a handler.
    init(borrowing message: OpaquePointer) {
        self.message = sd_bus_message_ref(message)
    }

    deinit {
        sd_bus_message_unref(message)
    }

    /// The unique name of the peer that sent it, e.g. `:1.42`.
    var sender: String? {
        sd_bus_message_get_sender(message).map { String(cString: $0) }
    }

    /// A reader over the message's arguments, from the first.
    func reader() -> DBusReader {
        DBusReader(message: self)
    }
}
