#if canImport(Glibc)
import Glibc
#endif
import LightShowCore
import LightShowSystem
import Logging
import Synchronization

/// What the MPD and MPRIS clients share: their own thread (started once), the signal that stops it, the user's
/// commands queued for it, and the stream of news it sends. A burst keeps the newest few commands; those that come
/// while there is no player (between sessions) are dropped, so they never reach a player seconds or minutes later.
final class PlayerThread: Sendable {
    /// At most this many commands wait; a burst keeps the newest.
    static let queueLimit = 4

    /// Readable from `stop()` on, for good (nobody consumes it), so every later wait of the thread sees it.
    let stopSignal: WakeSignal
    /// Readable while commands wait.
    let commandSignal: WakeSignal
    /// The client's news, newest 64 kept for a slow reader; its end stops the thread.
    let events: AsyncStream<NowPlayingEvent>
    let continuation: AsyncStream<NowPlayingEvent>.Continuation
    private let threadName: String
    private let logger: Logger
    private let pending = Mutex<[UserCommand]>([])
    private let started = Atomic<Bool>(false)
    private let stopped = Atomic<Bool>(false)

    /// - Parameters: threadName: as `top -H` shows it; client: names the client in an error.
    init(threadName: String, client: String, logger: Logger) throws(LightShowError) {
        do {
            stopSignal = try WakeSignal()
            commandSignal = try WakeSignal()
        } catch {
            throw LightShowError("\(client): \(error)", exitStatus: .ioError)
        }
        self.threadName = threadName
        self.logger = logger
        (events, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(64))
        continuation.onTermination = { [weak self] _ in self?.stop() }
    }

    /// Runs `body` on the thread, the first time only. A thread that can't start is logged and reported on
    /// `events` as lost, and `events` finishes.
    func start(_ body: @escaping @Sendable () -> Void) {
        guard !started.exchange(true, ordering: .relaxed) else { return }
        do {
            try DedicatedThread.start(name: threadName, body)
        } catch {
            logger.error("\(error)")
            continuation.yield(.lost(error.description))
            continuation.finish()
        }
    }

    /// Ends the thread's waits at once, and every later one.
    func stop() {
        stopped.store(true, ordering: .releasing)
        stopSignal.signal()
    }

    var isStopped: Bool { stopped.load(ordering: .acquiring) }

    /// Queues `command` for the thread and wakes it.
    func forward(_ command: UserCommand) {
        pending.withLock { queue in
            if queue.count >= Self.queueLimit { queue.removeFirst() }
            queue.append(command)
        }
        commandSignal.signal()
    }

    /// The commands waiting, oldest first. The signal is cleared before the queue is taken, so a command queued
    /// meanwhile leaves it readable for the next wait.
    func takeCommands() -> [UserCommand] {
        commandSignal.consume()
        return pending.withLock { queue in
            defer { queue.removeAll() }
            return queue
        }
    }

    /// Waits `duration` between sessions; true when stopped. Commands that come meanwhile have no player to go to:
    /// they are dropped, so they neither end the wait early nor reach a player later.
    func pause(for duration: Duration) -> Bool {
        let deadline = MonotonicClock.now() &+ duration.clampedNanoseconds
        while !isStopped {
            var descriptors = [
                pollfd(fd: stopSignal.readFD, events: Int16(POLLIN), revents: 0),
                pollfd(fd: commandSignal.readFD, events: Int16(POLLIN), revents: 0),
            ]
            let ready = Poll.wait(&descriptors, count: 2, until: deadline)
            if descriptors[0].revents != 0 { return true }
            if descriptors[1].revents != 0 { _ = takeCommands() }
            if ready == 0 { return false }
            if ready < 0 { return isStopped }  // poll failed: wait no longer, the session retries
        }
        return true
    }
}
