import Synchronization

/// Bounds how many sample blocks wait between a source and the engine: a file read faster than it is analysed
/// waits here instead of piling up in memory. One producer acquires, the engine releases.
final class BlockCredits: Sendable {
    private struct State {
        var available: Int
        var waiter: CheckedContinuation<Void, Never>?
        var closed = false
    }

    private let state: Mutex<State>

    init(limit: Int) {
        state = Mutex(State(available: limit))
    }

    /// Takes a credit, waiting for one if none is free. Returns at once after `close()`.
    func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state in
                if state.closed { return true }
                if state.available > 0 {
                    state.available -= 1
                    return true
                }
                state.waiter = continuation
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Gives a credit back (after a block was handled), handing it straight to a waiting producer.
    func release() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.available += 1
            return nil
        }
        waiter?.resume()
    }

    /// Lets the producer through for good (the engine is shutting down).
    func close() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.closed = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }
}
