import LightShowCore
import LightShowSystem
import Logging

/// One Hue output's connection. The blocking work runs on a thread of its own: starting the entertainment area over
/// HTTPS, the DTLS handshake, stopping the area, and reconnecting with backoff. The lights' sender hands over each
/// paced frame (the three bands' colours), written at once as a HueStream message while the stream is up. Nothing
/// here can hold up the show or another output.
final class HueStreamWorker: Sendable {
    /// What the sender and the thread share.
    struct Mailbox: Sendable {
        /// The newest frame: red, green and blue for bass, mid and treble (9 bytes), and a count of frames handed over.
        var frame: [UInt8] = []
        /// `lights test`: the one channel to light.
        var only: Int?
        var handed = 0
        /// The established stream, which frames are written into as they are handed over; nil while not connected.
        var stream: HueLiveStream?
        /// Why the stream was lost while sending, for the thread to log and reconnect.
        var lost: String?
        /// The show ended: after the newest frame, stop the area until frames come again.
        var ending = false
        /// The output is gone: stop the area and end the thread.
        var closing = false
        /// For status: messages sent, and what is wrong now (nil while streaming or idle).
        var sent = 0
        var problem: String?
    }

    private let mailbox: Locked<Mailbox>
    private let wake: WakeSignal
    private let done: WakeSignal

    /// Starts the thread (named after the output); it does nothing until the first frame.
    init(target: HueTarget, name: String, logger: Logger) throws(LightShowError) {
        let mailbox = Locked(Mailbox())
        do {
            wake = try WakeSignal()
            done = try WakeSignal()
        } catch {
            throw LightShowError("\(name): \(error)", exitStatus: .ioError)
        }
        self.mailbox = mailbox
        try DedicatedThread.start(name: "ls-hue") { [wake, done] in
            HueStreamLoop(target: target, name: name, mailbox: mailbox, wake: wake, logger: logger).run()
            done.signal()
        }
    }

    deinit {
        close()
    }

    /// Sends one frame's colours (bass, mid, treble: 9 bytes) at once when the stream is up, without waiting for
    /// the thread (so Hue's frame → record time is DDP's); wakes the thread when it has something to do: connect,
    /// or reconnect after the send found the peer gone.
    func submit(_ colors: [UInt8], only channel: Int? = nil) {
        let needsThread = mailbox.withLock { box -> Bool in
            box.frame = colors
            box.only = channel
            box.handed &+= 1
            let wasEnding = box.ending
            box.ending = false
            guard let stream = box.stream else { return true }
            do throws(DTLSFailure) {
                if try stream.send(colors, only: channel) { box.sent += 1 }
                return wasEnding
            } catch {
                box.stream = nil
                box.lost = error.description
                return true
            }
        }
        if needsThread { wake.signal() }
    }

    /// The show ended (black was the last frame): stop the area.
    func end() {
        mailbox.withLock { $0.ending = true }
        wake.signal()
    }

    /// Stops the area (if streaming) and ends the thread.
    func close() {
        mailbox.withLock { $0.closing = true }
        wake.signal()
    }

    /// Waits until the thread has ended, at most until `deadline` (monotonic nanoseconds).
    func waitClosed(until deadline: UInt64) {
        let now = MonotonicClock.now()
        guard deadline > now else { return }
        // Never consumed: later calls return at once.
        _ = done.wait(for: .nanoseconds(Int64(clamping: deadline - now)))
    }

    /// Messages sent and the current problem, for status.
    var report: (sent: Int, problem: String?) {
        mailbox.withLock { ($0.sent, $0.problem) }
    }
}

extension HueStreamWorker {
    /// The worker for a Hue output: `previous`'s when it streamed the same target (a reload that keeps the output),
    /// else a new one. A thread that can't start is logged; the output then stays dark and the show goes on.
    static func forOutput(_ plan: LightOutputPlan, previous: LightsOutput?, logger: Logger) -> HueStreamWorker? {
        guard let target = plan.hue else { return nil }
        if let previous, let worker = previous.hue, previous.plan.hue == target { return worker }
        do { return try HueStreamWorker(target: target, name: plan.name, logger: logger) } catch {
            logger.error("\(plan.name): \(error)")
            return nil
        }
    }
}

extension LightsOutput {
    /// Hue: a byte after the painted colours that changes with `onlyChannel` (0 without), so the pacer sends when a
    /// `lights test` moves to the next channel of the same band and colour. Empty for other outputs.
    var hueChannelMark: [UInt8] {
        guard hue != nil else { return [] }
        return [onlyChannel.map { UInt8(clamping: $0 + 1) } ?? 0]
    }

    /// Hands a paced frame to the Hue thread and takes its counts and problem into the status.
    func hueSend(_ bytes: [UInt8]) {
        guard let hue else { return }
        hue.submit(Array(bytes.prefix(9)), only: onlyChannel)
        let report = hue.report
        status.packetsSent = report.sent
        status.isFailing = report.problem != nil
        if let problem = report.problem { status.lastError = problem }
    }
}
