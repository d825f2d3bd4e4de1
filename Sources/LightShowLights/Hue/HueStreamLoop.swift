#if canImport(Glibc)
import Glibc
#endif
import LightShowControl
import LightShowCore
import LightShowSystem
import Logging

/// The body of a Hue output's thread (see `HueStreamWorker`): connects when there is something to show, sends each
/// frame handed over as one HueStream message, and on a failure retries with backoff, logging one line when the
/// stream goes and one when it is back (a problem that stays the same is not logged again).
final class HueStreamLoop {
    /// Longest wait for the DTLS handshake.
    static let handshakeTimeout: UInt64 = 3_000_000_000
    /// Longest wait for an HTTPS request while streaming; stopping at shutdown gets less.
    static let requestTimeout = 3.0
    static let stopTimeout = 1.0
    /// Backoff between attempts: doubling from the first, capped so a bridge that comes back is used within seconds.
    static let firstRetry: UInt64 = 250_000_000
    static let longestRetry: UInt64 = 4_000_000_000

    private let target: HueTarget
    private let name: String
    private let mailbox: Locked<HueStreamWorker.Mailbox>
    private let wake: WakeSignal
    private let logger: Logger

    private var client: HueBridgeClient?
    private var session: DTLSSession?
    /// The area streamed to, with each channel's band (index into the 9-byte frame).
    private var area: HueEntertainmentArea?
    private var areaID: [UInt8] = []
    private var bands: [(id: UInt8, band: Int)] = []
    private var sequence: UInt8 = 0
    private var sentCount = 0
    /// Frames handed over that have been sent (or skipped while disconnected).
    private var taken = 0
    private var failures = 0
    private var retryAt: UInt64 = 0
    /// The problem logged last, so the same one isn't logged again; nil while streaming.
    private var problem: String?
    /// True once the stream was up, so its loss and its return are each logged once.
    private var wasStreaming = false

    init(target: HueTarget, name: String, mailbox: Locked<HueStreamWorker.Mailbox>, wake: WakeSignal, logger: Logger) {
        self.target = target
        self.name = name
        self.mailbox = mailbox
        self.wake = wake
        self.logger = logger
    }

    func run() {
        while true {
            wake.consume()
            let box = mailbox.withLock { $0 }
            var deadline: UInt64?
            if box.closing {
                sendPending(box)
                stopArea()
                return
            }
            if box.ending {
                // The last (black) frame, if the stream is up, then the area is let go.
                sendPending(box)
                stopArea()
            } else if box.handed > 0 {
                deadline = stream(box)
            }
            publish()
            var descriptor = pollfd(fd: wake.readFD, events: Int16(POLLIN), revents: 0)
            _ = Poll.wait(&descriptor, count: 1, until: deadline)
        }
    }

    /// Connects if needed and sends the newest frame; the time of the next attempt when not connected.
    private func stream(_ box: HueStreamWorker.Mailbox) -> UInt64? {
        if session == nil {
            let now = MonotonicClock.now()
            guard now >= retryAt else { return retryAt }
            do throws(HueStreamProblem) {
                try connect()
            } catch {
                failed(error)
                return retryAt
            }
        }
        sendPending(box)
        return session == nil ? retryAt : nil
    }

    /// Sends the newest frame handed over, if not yet sent.
    private func sendPending(_ box: HueStreamWorker.Mailbox) {
        guard box.handed != taken else { return }
        taken = box.handed
        guard let session else { return }
        let message = HueStreamMessage.encode(areaID: areaID, sequence: sequence, channels: channels(box.frame))
        sequence &+= 1
        do throws(DTLSFailure) {
            if try session.write(message) { sentCount += 1 }
            try session.checkPeer()
        } catch {
            self.session = nil
            failed(.lost(error.description))
        }
    }

    /// Each channel of the area in its band's colour, 8 bits widened to 16.
    private func channels(_ frame: [UInt8]) -> [HueStreamMessage.Channel] {
        bands.map { channel in
            let offset = channel.band * 3
            guard offset + 2 < frame.count else { return HueStreamMessage.Channel(id: channel.id, red: 0, green: 0, blue: 0) }
            return HueStreamMessage.Channel(
                id: channel.id, red: UInt16(frame[offset]) * 257, green: UInt16(frame[offset + 1]) * 257, blue: UInt16(frame[offset + 2]) * 257
            )
        }
    }

    /// Finds the area, starts it and runs the handshake.
    private func connect() throws(HueStreamProblem) {
        let client: HueBridgeClient
        if let existing = self.client {
            client = existing
        } else {
            do { client = try HueBridgeClient(base: target.base, pinnedCertificate: target.pairing.certificateSHA256) } catch {
                throw .fatal(error.message)
            }
            self.client = client
        }
        let area = try findArea(client)
        let start = try request(client, "PUT", "/clip/v2/resource/entertainment_configuration/\(area.id)", body: #"{"action":"start"}"#)
        guard (200..<300).contains(start.status) else {
            throw .refused("the bridge refused to start area \"\(area.name)\": \(Self.errors(in: start))")
        }
        self.area = area
        areaID = Array(area.id.utf8)
        bands = area.channels.map { channel in
            (UInt8(clamping: channel.id), Band.allCases.firstIndex(of: HueEntertainmentArea.band(of: channel, overrides: target.overrides)) ?? 0)
        }
        let library: OpenSSLLibrary
        do { library = try OpenSSLLibrary.load() } catch { throw .fatal(error.message) }
        do throws(DTLSFailure) {
            let session = try DTLSSession(
                library: library, destination: target.stream, identity: target.pairing.applicationID, key: target.pairing.clientKey
            )
            try session.handshake(until: MonotonicClock.now() &+ Self.handshakeTimeout)
            self.session = session
        } catch {
            throw Self.handshakeProblem(error, target: target)
        }
        failures = 0
        if wasStreaming || problem != nil {
            logger.notice("\(name): streaming to the Hue bridge at \(target.bridge) again (area \"\(area.name)\")")
        } else {
            logger.info("\(name): streaming to area \"\(area.name)\" of the Hue bridge at \(target.bridge), \(bands.count) channels")
        }
        problem = nil
        wasStreaming = true
    }

    private func findArea(_ client: HueBridgeClient) throws(HueStreamProblem) -> HueEntertainmentArea {
        let reply = try request(client, "GET", "/clip/v2/resource/entertainment_configuration", body: nil)
        if reply.status == 401 || reply.status == 403 {
            throw .refused("the bridge at \(target.bridge) refused the application key (HTTP \(reply.status)); \(target.pairAgain)")
        }
        guard reply.status == 200 else { throw .refused("the bridge at \(target.bridge) answered HTTP \(reply.status) to the area list") }
        let areas: [HueEntertainmentArea]
        do { areas = try HueEntertainmentArea.list(from: reply.body) } catch { throw .refused("area list from \(target.bridge): \(error)") }
        guard let area = HueEntertainmentArea.named(target.area, in: areas) else {
            let known = areas.map { "\"\($0.name)\"" }.joined(separator: ", ")
            throw .refused("the bridge at \(target.bridge) has no entertainment area \"\(target.area)\" (it has: \(known.isEmpty ? "none" : known))")
        }
        if let streamer = area.activeStreamer, streamer != target.pairing.applicationID {
            throw .busy("another application (\(streamer)) is streaming to area \"\(area.name)\"; retrying until it lets go")
        }
        return area
    }

    private func request(_ client: HueBridgeClient, _ method: String, _ path: String, body: String?, timeout: Double = requestTimeout) throws(HueStreamProblem) -> HueBridgeClient.Response {
        do {
            return try client.request(method, path, body: body.map { Array($0.utf8) }, key: target.pairing.applicationKey, timeout: timeout)
        } catch {
            if case .certificateChanged = error {
                throw .refused(
                    "refusing the Hue bridge at \(target.bridge): \(error). If the bridge was replaced or reset, \(target.pairAgain); "
                        + "otherwise something on the network is posing as it"
                )
            }
            throw .unreachable("the Hue bridge at \(target.bridge): \(error)")
        }
    }

    /// Ends the stream: a close_notify, then `{"action":"stop"}` for the area.
    private func stopArea() {
        guard let area else { return }
        session = nil
        self.area = nil
        guard let client else { return }
        do {
            let reply = try request(client, "PUT", "/clip/v2/resource/entertainment_configuration/\(area.id)", body: #"{"action":"stop"}"#, timeout: Self.stopTimeout)
            if (200..<300).contains(reply.status) {
                logger.info("\(name): stopped area \"\(area.name)\"")
            } else {
                logger.warning("\(name): the bridge refused to stop area \"\(area.name)\": \(Self.errors(in: reply))")
            }
        } catch {
            logger.warning("\(name): could not stop area \"\(area.name)\": \(error)")
        }
    }

    private func failed(_ problem: HueStreamProblem) {
        failures += 1
        let shift = UInt64(min(failures - 1, 5))
        retryAt = MonotonicClock.now() &+ min(Self.longestRetry, Self.firstRetry << shift)
        if case .lost = problem { area = nil }
        let text = problem.description
        guard text != self.problem else { return }
        self.problem = text
        if case .lost = problem {
            logger.warning("\(name): lost the stream to the Hue bridge at \(target.bridge) (\(text)); reconnecting")
        } else {
            logger.warning("\(name): \(text)")
        }
    }

    private func publish() {
        let (count, text) = (sentCount, problem)
        mailbox.withLock { box in
            box.sent = count
            box.problem = text
        }
    }

    /// The `errors[].description` of a v2 reply, else its status.
    static func errors(in reply: HueBridgeClient.Response) -> String {
        if let document = try? JSONParser.parse(reply.body), case .array(let list)? = document["errors"] {
            let texts = list.compactMap { $0["description"]?.stringValue }.map { SafeText.sanitized($0, limit: 200) }
            if !texts.isEmpty { return texts.joined(separator: "; ") }
        }
        return "HTTP \(reply.status)"
    }

    static func handshakeProblem(_ failure: DTLSFailure, target: HueTarget) -> HueStreamProblem {
        let place = "the Hue bridge at \(target.bridge) (DTLS \(target.stream))"
        switch failure.kind {
        case .rejectedKey:
            return .refused("\(place) refused the stream's key (\(failure.detail)): the pairing no longer matches; \(target.pairAgain)")
        case .timedOut:
            return .unreachable("no DTLS handshake with \(place) within \(handshakeTimeout / 1_000_000_000) s")
        case .setup:
            return .fatal("DTLS: \(failure.detail)")
        default:
            return .unreachable("DTLS handshake with \(place) failed: \(failure.detail)")
        }
    }
}

/// Why a Hue output isn't streaming; the text is what the log says.
enum HueStreamProblem: Error, CustomStringConvertible {
    case unreachable(String)
    case refused(String)
    case busy(String)
    case lost(String)
    case fatal(String)

    var description: String {
        switch self {
        case .unreachable(let text), .refused(let text), .busy(let text), .lost(let text), .fatal(let text): text
        }
    }
}
