import Synchronization

/// A clock that moves only when its owner moves it: the audio timeline of an offline input (so a file gives the
/// same show however fast it is read), and the mock clock of tests.
public final class ManualClock: Clock, Sendable {
    public struct Instant: InstantProtocol, Sendable, Hashable {
        /// Time since the clock's origin.
        public var offset: Duration

        public init(offset: Duration) { self.offset = offset }

        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        var deadline: Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var sleepers: [UInt64: Sleeper] = [:]
        var nextID: UInt64 = 0
    }

    private let state = Mutex(State())

    public init() {}

    public var now: Instant { state.withLock { $0.now } }
    /// Sleepers not yet woken: a test waits for one to be asleep before it moves the clock.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }
    public var minimumResolution: Duration { .nanoseconds(1) }

    /// Moves the clock forward to `instant` (never back) and wakes the sleepers whose deadline has come.
    public func advance(to instant: Instant) {
        let due = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            guard instant > state.now else { return [] }
            state.now = instant
            let ready = state.sleepers.filter { $0.value.deadline <= instant }
            for id in ready.keys { state.sleepers[id] = nil }
            return ready.values.map(\.continuation)
        }
        for continuation in due { continuation.resume() }
    }

    public func advance(by duration: Duration) {
        advance(to: now.advanced(by: duration))
    }

    /// Suspends until the owner advances the clock to `deadline`.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow: (any Error)?? = state.withLock { state in
                    if Task.isCancelled { return .some(CancellationError()) }
                    if deadline <= state.now { return .some(nil) }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return .none
                }
                switch resumeNow {
                case .none: break
                case .some(.none): continuation.resume()
                case .some(.some(let error)): continuation.resume(throwing: error)
                }
            }
        } onCancel: {
            let sleeper = state.withLock { $0.sleepers.removeValue(forKey: id) }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }
}
