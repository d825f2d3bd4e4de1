import CPulse
import LightShowSystem
public import LightShowCore

/// The sound server's sinks and sources as `--input pulse:…` names them, and what plain `pulse` records now
/// (for `lightshow devices`). Every name and description is the server's: sanitized before it is shown.
public struct PulseDeviceList: Sendable {
    public struct Device: Sendable, Equatable {
        public var name: String
        public var description: String
        /// The sink a monitor source monitors; nil for a real source (a microphone, a line in).
        public var monitoredSink: String?
    }

    /// The server as it names itself, e.g. `pulseaudio 16.1` or `PulseAudio (on PipeWire 0.3.65) 15.0.0`.
    public var server: String
    public var defaultSink: String?
    public var defaultSource: String?
    /// Sink monitors (what plays) and the other sources.
    public var monitors: [Device]
    public var sources: [Device]

    /// The source `--input pulse` records now: the default sink's monitor.
    public var recordedByPulse: String? {
        monitors.first { $0.monitoredSink != nil && $0.monitoredSink == defaultSink }?.name
    }

    /// What the callbacks send back, one part per reply.
    enum Part: Sendable, Equatable {
        case server(name: String, defaultSink: String?, defaultSource: String?)
        case sinks([Int: String])
        case sources([(index: UInt32, device: Device)])

        static func == (lhs: Part, rhs: Part) -> Bool {
            switch (lhs, rhs) {
            case let (.server(a, b, c), .server(d, e, f)): a == d && b == e && c == f
            case let (.sinks(a), .sinks(b)): a == b
            case let (.sources(a), .sources(b)): a.map(\.device) == b.map(\.device) && a.map(\.index) == b.map(\.index)
            default: false
            }
        }
    }

    /// Asks the server (at most `timeout` seconds). Throws with the reason when no server answers.
    public static func current(timeout: Double = 2) throws(LightShowError) -> PulseDeviceList {
        let inbox: PulseInbox
        do { inbox = try PulseInbox(maximumSamples: 0) } catch { throw LightShowError("\(error)", exitStatus: .ioError) }
        let collector = PulseListCollector(inbox: inbox)
        var connection: PulseConnection? = try PulseConnection(inbox: inbox)
        defer { withExtendedLifetime(collector) { connection = nil } }
        let deadline = MonotonicClock.now() + UInt64(timeout * 1e9)
        var server: (String, String?, String?)?
        var sinks: [Int: String]?
        var sources: [(index: UInt32, device: Device)]?
        while server == nil || sinks == nil || sources == nil {
            guard MonotonicClock.now() < deadline else {
                throw LightShowError("no answer within \(timeout) s", exitStatus: .ioError)
            }
            _ = inbox.wake.wait(for: .milliseconds(50))
            for event in inbox.takeEvents() {
                switch event {
                case .ready: if let connection { collector.request(on: connection) }
                case .failed(let reason): throw LightShowError(reason, exitStatus: .ioError)
                case .listed(.server(let name, let sink, let source)): server = (name, sink, source)
                case .listed(.sinks(let list)): sinks = list
                case .listed(.sources(let list)): sources = list
                default: break
                }
            }
        }
        guard let server, let sinks, let sources else { throw LightShowError("incomplete answer", exitStatus: .ioError) }
        var list = PulseDeviceList(server: server.0, defaultSink: server.1, defaultSource: server.2, monitors: [], sources: [])
        for (index, device) in sources {
            var device = device
            if index != UInt32.max { // PA_INVALID_INDEX: not a monitor
                device.monitoredSink = sinks[Int(index)] ?? "?" }
            if device.monitoredSink != nil { list.monitors.append(device) } else { list.sources.append(device) }
        }
        return list
    }
}
