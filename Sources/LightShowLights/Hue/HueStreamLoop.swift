#if canImport(Glibc)
import Glibc
#endif
import LightShowControl
import LightShowCore
import LightShowSystem
import Logging

/// The body of a Hue output's thread (see `HueStreamWorker`): connects when there is something to show and hands the
/// established stream to the mailbox, where the lights' sender writes each frame; stops the area when the show ends;
/// and when the stream fails, retries with backoff, logging one line when the stream goes and one when it is back
/// (a problem that stays the same is not logged again).
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
    /// The area started on the bridge (and not yet stopped).
    private var area: HueEntertainmentArea?
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
            let box = mailbox.withLock { box in
                defer { box.lost = nil }
                return (closing: box.closing, ending: box.ending, handed: box.handed, streaming: box.stream != nil, lost: box.lost)
            }
            if let lost = box.lost {
                // The sender found the peer gone; the bridge may still count the area as ours, so it is started again.
                area = nil
                failed(.lost(lost))
            }
            var deadline: UInt64?
            if box.closing || box.ending {
                // The last (black) frame went out through the stream; then it closes and the area is let go.
                _ = mailbox.withLock { $0.stream.take() }
                stopArea()
                if box.closing { return }
            } else if box.handed > 0, !box.streaming {
                deadline = reconnect()
            }
            publish()
            var descriptor = pollfd(fd: wake.readFD, events: Int16(POLLIN), revents: 0)
            _ = Poll.wait(&descriptor, count: 1, until: deadline)
        }
    }

    /// Connects unless it is too early; the time of the next attempt while not connected.
    private func reconnect() -> UInt64? {
        guard MonotonicClock.now() >= retryAt else { return retryAt }
        do throws(HueStreamProblem) {
            let stream = try connect()
            // Installed only while frames are still wanted, with the newest one sent at once.
            let installed = mailbox.withLock { box -> Bool in
                guard !box.ending, !box.closing else { return false }
                if (try? stream.send(box.frame, only: box.only)) == true { box.sent += 1 }
                box.stream = stream
                return true
            }
            if !installed { wake.signal() }
            return nil
        } catch {
            failed(error)
            return retryAt
        }
    }

    /// Finds the area, starts it and runs the handshake.
    private func connect() throws(HueStreamProblem) -> HueLiveStream {
        let client: HueBridgeClient
        if let existing = self.client {
            client = existing
        } else {
            do { client = try HueBridgeClient(base: target.base, pinnedCertificate: target.pairing.certificateSHA256) } catch {
                throw .fatal(error.message)
            }
            self.client = client
        }
        let area = try target.area(using: client)
        if let streamer = area.activeStreamer, streamer != target.pairing.applicationID {
            throw .busy("another application (\(streamer)) is streaming to area \"\(area.name)\"; retrying until it lets go")
        }
        let start = try target.request(client, .put, "/clip/v2/resource/entertainment_configuration/\(area.id)", body: #"{"action":"start"}"#)
        guard (200..<300).contains(start.status) else {
            throw .refused("the bridge refused to start area \"\(area.name)\": \(Self.errors(in: start))")
        }
        self.area = area
        let bands = area.channels.map { channel in
            (UInt8(clamping: channel.id), Band.allCases.firstIndex(of: HueEntertainmentArea.band(of: channel, overrides: target.overrides)) ?? 0)
        }
        let library: OpenSSLLibrary
        do { library = try OpenSSLLibrary.load() } catch { throw .fatal(error.message) }
        let session: DTLSSession
        do throws(DTLSFailure) {
            session = try DTLSSession(
                library: library, destination: target.stream, identity: target.pairing.applicationID, key: target.pairing.clientKey
            )
            try session.handshake(until: MonotonicClock.now() &+ Self.handshakeTimeout)
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
        return HueLiveStream(session: session, areaID: Array(area.id.utf8), bands: bands)
    }

    /// Ends the stream: a close_notify, then `{"action":"stop"}` for the area.
    private func stopArea() {
        guard let area else { return }
        self.area = nil
        guard let client else { return }
        do {
            let reply = try target.request(client, .put, "/clip/v2/resource/entertainment_configuration/\(area.id)", body: #"{"action":"stop"}"#, timeout: Self.stopTimeout)
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
        let text = problem
        mailbox.withLock { $0.problem = text }
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
    case unknownArea(String)
    case lost(String)
    case fatal(String)

    var description: String {
        switch self {
        case .unreachable(let text), .refused(let text), .busy(let text), .unknownArea(let text), .lost(let text), .fatal(let text): text
        }
    }
}
