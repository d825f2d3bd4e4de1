import Synchronization

/// Open connections of one server, counted from the moment each is accepted until it closes (WebSocket viewers
/// included): the cap's count and the metrics' gauge.
final class ConnectionCounter: Sendable {
    let limit: Int
    private let open = Atomic(0)

    init(limit: Int) {
        self.limit = limit
    }

    /// Counts a new connection; false when it is over the limit (it is counted all the same until it closes).
    func add() -> Bool {
        open.add(1, ordering: .relaxed).newValue <= limit
    }

    func remove() {
        open.subtract(1, ordering: .relaxed)
    }

    var count: Int { open.load(ordering: .relaxed) }
}
