import CMosquitto
import LightShowCore
import LightShowSystem
import Logging
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The connection's thread: connects, polls the broker's socket and the wake-up, sends what the store holds,
/// reconnects with backoff. Made and used on that thread only, with the libmosquitto client it owns.
final class MQTTLoop {
    private let connection: MQTTConnection
    private let library: MosquittoLibrary
    private var options: MQTTConnection.Options { connection.options }
    private var logger: Logger { connection.logger }
    private var backoff = ReopenBackoff(initial: 0.5, maximum: 30)
    /// CONNACK accepted on the current connection: publishing may start.
    private var accepted = false
    /// The outage was logged; the next accepted connection says it is back.
    private var outageLogged = false
    private var problems = ProblemFilter()
    /// Why the broker refused us, from CONNACK, for the outage line.
    private var refusal: String?

    init(connection: MQTTConnection, library: MosquittoLibrary) {
        self.connection = connection
        self.library = library
    }

    func run() {
        let client: MosquittoClient
        do {
            client = try makeClient()
        } catch {
            logger.error("\(error.message)")
            connection.update(.failed(error.message))
            return
        }
        var everConnected = false
        while !stopping {
            connection.update(.connecting)
            let code = everConnected ? client.reconnect() : client.connect(host: options.host, port: options.port, keepAliveSeconds: options.keepAliveSeconds)
            var reason: String
            if code == MOSQ_ERR_SUCCESS.rawValue {
                everConnected = true
                reason = serve(client) ?? ""
                if stopping { break }
            } else {
                reason = describe(code)
            }
            if let refusal {
                reason = refusal
                self.refusal = nil
            }
            connection.update(.disconnected(reason))
            if !outageLogged {
                let wasUp = accepted
                logger.warning("MQTT: \(wasUp ? "lost the connection to" : "cannot connect to") \(options.broker): \(reason); retrying")
                outageLogged = true
            }
            accepted = false
            if waitForStop(seconds: backoff.next()) { break }
        }
        finish(client)
    }

    private func makeClient() throws(LightShowError) -> MosquittoClient {
        let client = try MosquittoClient(library: library, clientID: options.clientID)
        if !options.username.isEmpty {
            try client.setCredentials(username: options.username, password: options.password)
        }
        if let will = options.will {
            try client.setWill(topic: will.topic, payload: will.payload, retain: will.retain)
        }
        if options.tls { try client.enableTLS(caFile: options.caFile) }
        client.onConnect = { [unowned self, unowned client] code in connected(client, code: code) }
        client.onMessage = { [unowned self] topic, payload in deliver(topic: topic, payload: payload) }
        return client
    }

    private func connected(_ client: MosquittoClient, code: Int32) {
        guard code == 0 else {
            refusal = library.describeRefusal(code)
            return
        }
        accepted = true
        backoff.reset()
        if outageLogged || !announcedOnce {
            logger.info("MQTT: connected to \(options.broker)")
            outageLogged = false
            announcedOnce = true
        }
        for pattern in options.subscriptions { _ = client.subscribe(pattern) }
        connection.shared.withLock { $0.outgoing.markAllPending() }
        connection.update(.connected)
        connection.connected()
    }

    private var announcedOnce = false

    private func deliver(topic: String, payload: UnsafeRawBufferPointer) {
        guard payload.count <= options.maximumPayloadBytes else {
            if problems.shouldReport("size \(topic)") {
                logger.warning("MQTT: ignored a \(payload.count)-byte message on \(SafeText.sanitized(topic, limit: 80)); the maximum is \(options.maximumPayloadBytes) bytes")
            }
            return
        }
        problems.clear("size \(topic)")
        connection.received(MQTTMessage(topic: topic, payload: Array(payload)))
    }

    /// Serves one connection until it is lost (returning why) or a stop is asked for (nil).
    private func serve(_ client: MosquittoClient) -> String? {
        var miscDue = MonotonicClock.now() &+ 1_000_000_000
        while true {
            if stopping { return nil }
            if accepted, let failure = flush(client) { return failure }
            let socket = client.socket
            guard socket >= 0 else { return "the connection closed" }
            var fds = [
                pollfd(fd: socket, events: Int16(POLLIN) | (client.wantsWrite ? Int16(POLLOUT) : 0), revents: 0),
                pollfd(fd: connection.wake.readFD, events: Int16(POLLIN), revents: 0),
            ]
            let ready = fds.withUnsafeMutableBufferPointer { Poll.wait($0.baseAddress!, count: 2, until: miscDue) }
            if ready < 0 { return SystemCallError.current("poll").description }
            if fds[1].revents != 0 { connection.wake.consume() }
            let events = fds[0].revents
            if events & Int16(POLLIN | POLLERR | POLLHUP) != 0 {
                let code = client.loopRead()
                if code != MOSQ_ERR_SUCCESS.rawValue { return refusal ?? describe(code) }
            }
            if events & Int16(POLLOUT) != 0 {
                let code = client.loopWrite()
                if code != MOSQ_ERR_SUCCESS.rawValue { return describe(code) }
            }
            if MonotonicClock.now() >= miscDue {
                let code = client.loopMisc()
                if code != MOSQ_ERR_SUCCESS.rawValue { return describe(code) }
                miscDue = MonotonicClock.now() &+ 1_000_000_000
            }
        }
    }

    /// Hands libmosquitto what the store holds that is not sent yet; a failure means the connection is gone.
    private func flush(_ client: MosquittoClient) -> String? {
        let pending = connection.shared.withLock { $0.outgoing.takePending() }
        for (topic, message) in pending {
            let code = client.publish(topic: topic, payload: message.payload, retain: message.retain)
            if code != MOSQ_ERR_SUCCESS.rawValue {
                // Sent again in full once connected again.
                connection.shared.withLock { $0.outgoing.markAllPending() }
                return describe(code)
            }
        }
        return nil
    }

    /// At a stop: the final messages (the retained `offline`), then a clean DISCONNECT, written out within a second.
    private func finish(_ client: MosquittoClient) {
        let finalMessages = connection.shared.withLock { $0.finalMessages }
        if accepted {
            _ = flush(client)
            for message in finalMessages { _ = client.publish(topic: message.topic, payload: message.payload, retain: message.retain) }
            let deadline = MonotonicClock.now() &+ 1_000_000_000
            while client.wantsWrite, client.socket >= 0, MonotonicClock.now() < deadline {
                var fd = pollfd(fd: client.socket, events: Int16(POLLOUT), revents: 0)
                guard Poll.wait(&fd, count: 1, until: deadline) > 0, client.loopWrite() == MOSQ_ERR_SUCCESS.rawValue else { break }
            }
            _ = client.disconnect()
        }
        connection.update(.disconnected("stopped"))
    }

    private var stopping: Bool { connection.shared.withLock { $0.stopping } }

    /// Sleeps `seconds` unless a stop comes first (true then).
    private func waitForStop(seconds: Double) -> Bool {
        let deadline = MonotonicClock.now() &+ UInt64(max(0, Int64(saturating: seconds * 1_000_000_000)))
        while !stopping {
            guard MonotonicClock.now() < deadline else { return false }
            var fd = pollfd(fd: connection.wake.readFD, events: Int16(POLLIN), revents: 0)
            if Poll.wait(&fd, count: 1, until: deadline) > 0 { connection.wake.consume() }
        }
        return true
    }

    private func describe(_ code: Int32) -> String {
        code == MOSQ_ERR_ERRNO.rawValue ? SystemCallError.current("mosquitto").message : library.describe(code)
    }
}
