import LightShowSystem
import LightShowCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The poll loop behind `ControlServer`: accepts clients, splits their input into request lines,
/// writes replies, and feeds subscribers the newest frame at their own pace. Runs on its own thread
/// and owns every connection; other threads reach it only through the server's inbox.
final class ControlEventLoop<Handler: ControlCommandHandler> {
    private let server: ControlServer<Handler>
    private var connections: [UInt64: ControlConnection] = [:]
    private var nextID: UInt64 = 1
    /// The newest scene and frame, as of the last pass.
    private var latest = ShowEventBoard.Latest()
    private var chunk = [UInt8](repeating: 0, count: 65_536)
    /// After EMFILE, accepting pauses briefly instead of spinning on a readable listener.
    private var acceptPausedUntil = 0.0

    init(server: ControlServer<Handler>) {
        self.server = server
    }

    private var options: ControlServer<Handler>.Options { server.options }

    func run() {
        while true {
            let now = Self.now()
            var fds = [
                pollfd(fd: server.wakeup.readFD, events: Int16(POLLIN), revents: 0),
                pollfd(fd: server.listener.fd, events: now >= acceptPausedUntil ? Int16(POLLIN) : 0, revents: 0),
            ]
            let order = Array(connections.values)
            for connection in order {
                var events: Int16 = 0
                if connection.wantsInput(maxLineBytes: options.maxLineBytes) { events |= Int16(POLLIN) }
                if connection.pendingOutput > 0 { events |= Int16(POLLOUT) }
                // Polled even when nothing is wanted (input ended, reply pending): poll still reports a hang-up, so
                // a client that goes away frees its slot at once, whether or not frames flow. A hang-up with
                // nothing wanted closes the connection below, so it can't spin the loop.
                fds.append(pollfd(fd: connection.fd, events: events, revents: 0))
            }
            guard Poll.wait(&fds, count: fds.count, timeout: timeout(now: now)) >= 0 else { break }

            if fds[0].revents != 0 { server.wakeup.consume() }
            guard takeInbox() else { break }
            for (index, connection) in order.enumerated() where fds[index + 2].revents != 0 && !connection.isClosed {
                let revents = fds[index + 2].revents
                if fds[index + 2].events & Int16(POLLIN) == 0 {
                    if revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 { connection.close() }
                } else if revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                    if !connection.readAvailable(chunk: &chunk) { connection.close(); continue }
                }
            }
            let time = Self.now()
            for connection in connections.values where !connection.isClosed {
                if let due = connection.idleDeadline(after: options.idleSeconds), time >= due {
                    connection.close()
                    continue
                }
                processLines(connection, now: time)
                feed(connection, now: time)
                if connection.pendingOutput > 0 && !connection.flush() { connection.close() }
                if connection.isFinished { connection.close() }
            }
            connections = connections.filter { !$0.value.isClosed }
            // New clients last: a slot that a client's hang-up freed in this same pass is theirs, so a client
            // that connects right after another left is never refused for a slot that is already free.
            if fds[1].revents & Int16(POLLIN) != 0 { acceptClients() }
            publishCounts()
        }
        for connection in connections.values { connection.close() }
        connections.removeAll()
        server.inbox.withLock { $0.clients = 0; $0.subscribers = 0 }
    }

    // MARK: - Inbox and wake-ups

    /// Applies replies, the newest frame and the scene posted by other threads. False when asked to stop.
    private func takeInbox() -> Bool {
        let (replies, stopping) = server.inbox.withLock { inbox in
            defer { inbox.replies.removeAll() }
            return (inbox.replies, inbox.state != .running)
        }
        if stopping { return false }
        for reply in replies {
            guard let connection = connections[reply.connection], !connection.isClosed else { continue }
            connection.enqueue(reply.line)
            connection.inFlight = false
            connection.lastActivity = Self.now()
        }
        latest = server.events.latest
        return true
    }

    /// How long until a subscriber is next due a waiting frame (at once for a scene it hasn't had), or nil to
    /// sleep until woken.
    private func timeout(now: Double) -> Duration? {
        var soonest = Double.infinity
        // A scene not yet sent (a subscriber whose reply to `subscribe` had to leave first) is due at once: no
        // frame may come to wake the loop (a silent input), and the scene must not wait for one.
        for connection in connections.values where connection.pendingOutput == 0 {
            if let wait = connection.subscription?.wait(for: latest, now: now) { soonest = min(soonest, wait) }
        }
        if acceptPausedUntil > now { soonest = min(soonest, acceptPausedUntil - now) }
        for connection in connections.values {
            if let due = connection.idleDeadline(after: options.idleSeconds) { soonest = min(soonest, due - now) }
        }
        guard soonest.isFinite else { return nil }
        return .milliseconds(Int64(saturating: max(0, (soonest * 1000).rounded(.up))))
    }

    // MARK: - Clients

    private func acceptClients() {
        while true {
            let accepted: OwnedDescriptor?
            do throws(SystemCallError) {
                accepted = try ListeningSocket.accept(server.listener.fd)
            } catch {
                if [EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(error.code) { acceptPausedUntil = Self.now() + 0.1 }
                return
            }
            guard let socket = accepted else { return }
            let isChild = SocketPeer.isChildOfThisProcess(socket.rawValue)
            let limit = isChild ? options.maxChildClients : options.maxClients
            guard connections.values.count(where: { $0.isChild == isChild }) < limit else {
                let refusal = ControlRequest.replyLine(id: .null, .failure("too many clients (limit \(limit))"))
                // One try: a client that takes nothing now is refused all the same.
                _ = refusal.withUnsafeBytes { try? FileDescriptorIO.writeSome(socket.rawValue, $0, kind: .socket) }
                continue
            }
            connections[nextID] = ControlConnection(id: nextID, socket: socket, isChild: isChild, now: Self.now())
            nextID += 1
        }
    }

    /// What `status` reports of the connections (read by other threads).
    private func publishCounts() {
        let clients = connections.count
        let subscribers = connections.values.filter { $0.subscription != nil }.count
        let changed = server.inbox.withLock { inbox in
            defer { inbox.clients = clients; inbox.subscribers = subscribers }
            return inbox.clients != clients || inbox.subscribers != subscribers
        }
        if changed { server.countChanges.announce() }
    }

    // MARK: - Requests

    /// Handles complete lines while no request is in flight and the client reads its replies; an over-long
    /// line gets one error and is skipped.
    private func processLines(_ connection: ControlConnection, now: Double) {
        var start = 0
        let newline = UInt8(ascii: "\n")
        while !connection.inFlight, connection.pendingOutput <= ControlConnection.outputHighWater,
              let end = connection.input[start...].firstIndex(of: newline) {
            let line = connection.input[start..<end]
            start = end + 1
            if connection.discarding {
                connection.discarding = false
            } else if line.count > options.maxLineBytes {
                connection.enqueue(tooLong())
            } else {
                handle(Array(line), on: connection, now: now)
            }
        }
        connection.input.removeFirst(start)
        // Only a trailing partial line can be too long; complete lines may be waiting their turn.
        guard !connection.input.contains(newline) else { return }
        if connection.discarding {
            connection.input.removeAll(keepingCapacity: true)
        } else if !connection.inFlight && connection.input.count > options.maxLineBytes {
            connection.enqueue(tooLong())
            connection.discarding = true
            connection.input.removeAll(keepingCapacity: true)
        }
    }

    private func tooLong() -> [UInt8] {
        ControlRequest.replyLine(id: .null, .failure("request line longer than \(options.maxLineBytes) bytes"))
    }

    private func handle(_ line: [UInt8], on connection: ControlConnection, now: Double) {
        var line = line
        while let last = line.last, last == UInt8(ascii: "\r") || last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") {
            line.removeLast()
        }
        guard line.contains(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }) else { return }
        connection.lastActivity = now
        switch ControlRequest.parse(line) {
        case .failure(let invalid):
            connection.enqueue(ControlRequest.replyLine(id: invalid.id, .failure(invalid.message)))
        case .success(let request) where request.command == .subscribe:
            subscribe(connection, request, now: now)
        case .success(let request):
            connection.inFlight = true
            server.submit(request, connection: connection.id, from: connection.isChild ? .child : .local)
        }
    }

    private func subscribe(_ connection: ControlConnection, _ request: ControlRequest, now: Double) {
        var fps = options.defaultFPS
        if let given = request.arguments["fps"] {
            guard let number = given.numberValue, (1...options.maxFPS).contains(number) else {
                let message = "fps must be a number from 1 to \(JSONValue.format(options.maxFPS)), found \(given)"
                connection.enqueue(request.replyLine(.failure(message)))
                return
            }
            fps = number
        }
        var pacer = connection.subscription ?? ShowEventPacer(framesPerSecond: fps, now: now)
        pacer.setRate(framesPerSecond: fps, now: now)
        connection.subscription = pacer
        connection.enqueue(request.replyLine(.success([
            "fps": .number(fps), "protocol": .number(Double(ControlRequest.protocolVersion)),
        ])))
    }

    // MARK: - Subscribers

    /// Queues the scene if it changed, then the newest frame if due, but only once everything sent before has
    /// left: a client that doesn't read holds one partial line at most and is skipped, never waited for.
    private func feed(_ connection: ControlConnection, now: Double) {
        guard var subscription = connection.subscription, connection.pendingOutput == 0 else { return }
        for line in subscription.take(latest, now: now) { connection.enqueue(line) }
        let dropped = subscription.takeDropped()
        if dropped > 0 { server.dropped.wrappingAdd(dropped, ordering: .relaxed) }
        connection.subscription = subscription
    }

    static func now() -> Double {
        MonotonicClock.seconds()
    }
}
