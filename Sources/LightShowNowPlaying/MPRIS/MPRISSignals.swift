import CSystemd

/// The signals a session cares about, queued by sd-bus's handlers (called on the client's thread inside
/// `processAll()`) for the session to act on afterwards. Bounded: a flood costs a resync, not memory.
final class MPRISSignals {
    enum Signal: Equatable {
        /// `name` now belongs to `owner` ("" when it left).
        case owner(name: String, owner: String)
        /// The player whose unique name is `sender` changed a property.
        case changed(sender: String)
    }

    static let capacity = 1024
    private(set) var queue: [Signal] = []
    /// Set when signals were dropped: the session then reads every player again.
    private(set) var overflowed = false

    func append(_ signal: Signal) {
        if queue.last == signal { return }
        guard queue.count < Self.capacity else {
            overflowed = true
            return
        }
        queue.append(signal)
    }

    func take() -> (signals: [Signal], overflowed: Bool) {
        defer {
            queue.removeAll(keepingCapacity: true)
            overflowed = false
        }
        return (queue, overflowed)
    }

    /// `NameOwnerChanged(s name, s old, s new)` from the bus, for MPRIS names only.
    static let nameOwnerChanged: sd_bus_message_handler_t = { message, userdata, _ in
        guard let message, let userdata else { return 0 }
        let signals = Unmanaged<MPRISSignals>.fromOpaque(userdata).takeUnretainedValue()
        let reader = SDBusMessage(borrowing: message).reader()
        guard let name = try? reader.next()?.string, MPRISPlayer.isPlayer(name),
              (try? reader.next()?.string) != nil, let owner = try? reader.next()?.string else { return 0 }
        signals.append(.owner(name: name, owner: owner))
        return 0
    }

    /// `PropertiesChanged(s interface, a{sv}, as)` at /org/mpris/MediaPlayer2, for the Player interface only.
    static let propertiesChanged: sd_bus_message_handler_t = { message, userdata, _ in
        guard let message, let userdata else { return 0 }
        let signals = Unmanaged<MPRISSignals>.fromOpaque(userdata).takeUnretainedValue()
        let wrapped = SDBusMessage(borrowing: message)
        guard let sender = wrapped.sender,
              (try? wrapped.reader().next()?.string) == "org.mpris.MediaPlayer2.Player" else { return 0 }
        signals.append(.changed(sender: sender))
        return 0
    }
}
