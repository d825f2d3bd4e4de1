import Synchronization

/// Collects what an async sequence yields, with the time each element arrived, so a test can wait for one.
public final class StreamRecorder<Element: Sendable>: Sendable {
    public struct Arrival: Sendable {
        public var element: Element
        public var time: ContinuousClock.Instant
    }

    private final class Storage: Sendable {
        let arrivals = Mutex<[Arrival]>([])
        let finished = Mutex(false)
    }

    private let storage = Storage()
    private let reader: Task<Void, Never>

    public init<S: AsyncSequence & Sendable>(_ sequence: S) where S.Element == Element {
        reader = Task { [storage] in
            do {
                for try await element in sequence {
                    let now = ContinuousClock.now
                    storage.arrivals.withLock { $0.append(Arrival(element: element, time: now)) }
                }
            } catch {}
            storage.finished.withLock { $0 = true }
        }
    }

    public var all: [Arrival] { storage.arrivals.withLock { $0 } }
    public var elements: [Element] { all.map(\.element) }
    public var isFinished: Bool { storage.finished.withLock { $0 } }

    /// Waits for the first element after index `from` that matches, and returns it with its index.
    @discardableResult
    public func first(
        _ what: String, after from: Int = -1, timeout: Double = 30, where matches: (Element) -> Bool
    ) async throws -> (index: Int, arrival: Arrival) {
        var found: (index: Int, arrival: Arrival)?
        try await waitFor(what, timeout: timeout) {
            let all = self.all
            for index in all.indices where index > from && matches(all[index].element) {
                found = (index, all[index])
                return true
            }
            return false
        }
        guard let found else { throw ExternalTool.Failure(description: "lost the element waited for: \(what)") }
        return found
    }

    public func cancel() { reader.cancel() }

    deinit { reader.cancel() }
}
