/// Says whether to log a problem: the first of each kind is logged, repeats are not until that kind clears. A broker
/// flooding bad messages must not flood the journal.
public struct ProblemFilter: Sendable {
    private var reported: Set<String> = []
    /// Kinds remembered at most; beyond it, new kinds are not logged (topics come from outside).
    private let capacity: Int

    public init(capacity: Int = 64) {
        self.capacity = capacity
    }

    /// True the first time `kind` comes since it last cleared.
    public mutating func shouldReport(_ kind: String) -> Bool {
        guard !reported.contains(kind), reported.count < capacity else { return false }
        reported.insert(kind)
        return true
    }

    /// `kind` went well again: its next problem is logged.
    public mutating func clear(_ kind: String) {
        reported.remove(kind)
    }
}
