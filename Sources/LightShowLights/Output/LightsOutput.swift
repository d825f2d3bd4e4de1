import LightShowCore
import LightShowSystem
import Logging

/// One output on the sender thread: paints the scene for its layout, asks its pacer what is due, builds the
/// protocol's packets and sends them. A send failure is counted and logged once per change of error; it never
/// stops this output or any other.
final class LightsOutput {
    let plan: LightOutputPlan
    private let painter: LightPainter
    private let cid: ComponentIdentifier
    private let logger: Logger
    private(set) var pacer: OutputPacer
    var status: LightOutputStatus
    private var painted: (scene: LightScene, bytes: [UInt8])?
    /// WLED audio sync only: paints the packet body in place of `painter`.
    private var syncPainter: AudioSyncPainter?
    private var failing: Int32?
    /// Hue: the connection's own thread, which this output hands its paced frames to.
    private(set) var hue: HueStreamWorker?
    /// Hue, `lights test`: the one channel to light.
    var onlyChannel: Int?

    /// `previous` is the output this one replaces on a reload (same stream): its pacer and counts carry over,
    /// so the receiver sees one continuous stream.
    init(plan: LightOutputPlan, background: BackgroundSettings, cid: ComponentIdentifier, logger: Logger, previous: LightsOutput?) {
        self.plan = plan
        painter = LightPainter(settings: plan.settings, background: background)
        self.cid = cid
        self.logger = logger
        let pacer = OutputPacer(settings: plan.settings)
        if plan.settings.networkProtocol == .wledSync { syncPainter = previous?.syncPainter ?? AudioSyncPainter() }
        if let previous {
            self.pacer = pacer.continuing(previous.pacer)
            status = previous.status
            status.name = plan.name
            status.destination = plan.destinationText
            failing = previous.failing
        } else {
            self.pacer = pacer
            status = LightOutputStatus(name: plan.name, destination: plan.destinationText)
        }
        hue = HueStreamWorker.forOutput(plan, previous: previous, logger: logger)
    }

    var isLive: Bool { pacer.isLive }

    /// Sends what is due at `now` and returns the next deadline (nil: nothing until new input). `arrival` is when
    /// the input behind `scene` arrived.
    /// `ending` marks the scene as the end of the show (it is painted black): black goes out, then the stream
    /// ends. `endWhenDark` (stopped) ends it as soon as the painted scene is black.
    func advance(
        now: UInt64, scene: LightScene, arrival: UInt64, ending: Bool, endWhenDark: Bool, sequences: inout SequenceCounters
    ) -> UInt64? {
        var bytes = paint(scene) + hueChannelMark
        let end = ending || (endWhenDark && !bytes.contains { $0 != 0 })
        while true {
            switch pacer.step(now: now, payload: bytes, ending: end, arrival: arrival, urgent: syncPainter?.hasBeat ?? false) {
            case .send:
                transmit(bytes, terminated: false, sequences: &sequences)
                if syncPainter != nil {
                    // The beat it carried is spent: the next packet is painted without it.
                    syncPainter?.sent()
                    bytes = paint(scene)
                }
                status.isSending = true
            case .terminate:
                hue?.end()
                if plan.settings.networkProtocol == .sacn {
                    for _ in 0..<3 { transmit(bytes, terminated: true, sequences: &sequences) }
                }
                status.isSending = false
            case .wait(let until):
                return until
            }
        }
    }

    private func paint(_ scene: LightScene) -> [UInt8] {
        if var sync = syncPainter {
            defer { syncPainter = sync }
            return sync.paint(scene)
        }
        // A picture uses neither the spectrum nor the state: a new spectrum alone needn't repaint it.
        var scene = scene
        (scene.spectrum, scene.state) = (nil, .playing)
        if let painted, painted.scene == scene { return painted.bytes }
        let bytes = painter.paint(scene)
        painted = (scene, bytes)
        return bytes
    }

    private func transmit(_ bytes: [UInt8], terminated: Bool, sequences: inout SequenceCounters) {
        let settings = plan.settings
        let sequence = sequences.next(for: plan.key)
        let packets: [[UInt8]]
        switch settings.networkProtocol {
        case .ddp:
            packets = DDPPacket.frame(bytes, offset: painter.dataOffset, sequence: sequence)
        case .sacn:
            packets = [SACNPacket.data(
                cid: cid.bytes, sourceName: settings.sourceName, priority: UInt8(clamping: settings.priority),
                sequence: sequence, options: terminated ? SACNPacket.streamTerminated : 0,
                universe: UInt16(clamping: settings.universe), slots: bytes
            )]
        case .artnet:
            packets = [ArtDmxPacket.dmx(portAddress: UInt16(clamping: settings.universe), sequence: sequence, data: bytes)]
        case .hue:
            hueSend(bytes)
            return
        case .wledSync:
            packets = [WLEDSyncPacket.packet(body: bytes, counter: sequence)]
        }
        for packet in packets {
            if let error = plan.socket.send(packet, to: plan.destination) {
                failed(error)
            } else {
                status.packetsSent += 1
                status.isFailing = false
                if failing != nil {
                    failing = nil
                    logger.notice("\(plan.name): sending to \(plan.destinationText) again")
                }
            }
        }
    }

    private func failed(_ error: SystemCallError) {
        status.sendErrors += 1
        status.isFailing = true
        status.lastError = error.description
        guard failing != error.code else { return }
        failing = error.code
        logger.warning("\(plan.name): \(error) (counted; the show goes on; logged again only if the error changes)")
    }
}
