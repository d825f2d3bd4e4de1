import LightShowControl
import LightShowCore
import LightShowSystem
import Synchronization

/// Changes to the running configuration (reloads, `set-band`, `set-color`, `set-brightness`, `set-input`), applied
/// one at a time by a worker that suspends: a reload blocks (the parser's child process, the lights' host lookups)
/// on threads of its own, and waits for the web server's start without holding any thread. A reload asked for while another waits to start joins it: both callers get the newer one's
/// answer, so a burst of SIGHUPs costs one reload after the one under way. Callers suspend, never block; a
/// cancelled caller (the daemon stopping) stops waiting at once, and the work under way ends on its own.
final class ReloadQueue: Sendable {
    enum Request: Sendable {
        case reload(caller: String)
        case setBand(Band, lower: Double?, upper: Double?)
        /// `set-input`: a name a client chose, switched to only if it is one the daemon offers.
        case setInput(String)
        /// `set-color`, `set-brightness`: one change to the running configuration, named for the log.
        case edit(String, Edit)
    }

    /// Changes a configuration and says what to reply.
    typealias Edit = @Sendable (inout Configuration) -> JSONValue

    private struct Pending {
        var request: Request
        var waiters: [Waiter]
    }

    private let pending = Mutex<[Pending]>([])
    /// Rung when a request arrives; closed when the daemon stops.
    private let doorbell = BoundedQueue<Bool>(capacity: 1)

    /// Starts the worker that carries requests out with `apply`, one at a time, until `stop`. It suspends, never
    /// blocks: `apply` runs its blocking steps on threads of their own.
    func start(apply: @escaping @Sendable (Request) async -> ControlReply) {
        Task { [self] in
            while (try? await doorbell.next()) != nil {
                while let next = takeNext() {
                    let reply = await apply(next.request)
                    for waiter in next.waiters { waiter.resume(reply) }
                }
            }
        }
    }

    /// No more requests are taken; the callers still waiting are told so. A request under way finishes on its own.
    func stop() {
        doorbell.close()
        let abandoned = pending.withLock { pending in
            defer { pending.removeAll() }
            return pending.flatMap(\.waiters)
        }
        for waiter in abandoned { waiter.resume(.failure("the daemon is stopping")) }
    }

    /// Queues `request` and waits for its answer.
    func submit(_ request: Request) async -> ControlReply {
        let waiter = Waiter()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<ControlReply, Never>) in
                waiter.set(continuation)
                guard !Task.isCancelled else { return waiter.resume(Self.cancelled) }
                pending.withLock { pending in
                    // A reload waiting to start is replaced by this newer one, its callers answered with this one's.
                    if case .reload = request, let last = pending.indices.last, case .reload = pending[last].request {
                        pending[last].request = request
                        pending[last].waiters.append(waiter)
                    } else {
                        pending.append(Pending(request: request, waiters: [waiter]))
                    }
                }
                if doorbell.tryPush(true) == .closed { waiter.resume(.failure("the daemon is stopping")) }
            }
        } onCancel: {
            waiter.resume(Self.cancelled)
        }
    }

    /// Callers waiting for a request that has not started.
    var waiting: Int {
        pending.withLock { pending in pending.reduce(0) { $0 + $1.waiters.count } }
    }

    private static let cancelled = ControlReply.failure("cancelled while waiting for the reload thread")

    private func takeNext() -> Pending? {
        pending.withLock { pending in pending.isEmpty ? nil : pending.removeFirst() }
    }

    /// One caller's answer, given once: by the queue's thread, or by the caller's cancellation, whichever is first.
    private final class Waiter: Sendable {
        private let continuation = Mutex<CheckedContinuation<ControlReply, Never>?>(nil)

        func set(_ continuation: CheckedContinuation<ControlReply, Never>) {
            self.continuation.withLock { $0 = continuation }
        }

        func resume(_ reply: ControlReply) {
            continuation.withLock { $0.take() }?.resume(returning: reply)
        }
    }
}
