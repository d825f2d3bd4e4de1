import CPulse
import LightShowCore

/// Gathers the server info and the sink and source lists for `PulseDeviceList`, on the mainloop thread, and posts
/// each as a `PulseEvent.listed` part when its reply is complete. Lists are capped: a server is outside data.
final class PulseListCollector: @unchecked Sendable {
    static let maximumDevices = 512
    let inbox: PulseInbox
    // Only touched on the mainloop thread, with its lock held.
    private var sinks: [Int: String] = [:]
    private var sources: [(index: UInt32, device: PulseDeviceList.Device)] = []

    init(inbox: PulseInbox) {
        self.inbox = inbox
    }

    /// Asks for all three; the connection must be ready and must not outlive this collector.
    func request(on connection: PulseConnection) {
        let userdata = Unmanaged.passUnretained(self).toOpaque()
        connection.locked {
            if let operation = pa_context_get_server_info(connection.context, { _, info, userdata in
                guard let userdata else { return }
                let collector = Unmanaged<PulseListCollector>.fromOpaque(userdata).takeUnretainedValue()
                let name = [info?.pointee.server_name, info?.pointee.server_version]
                    .compactMap { $0.map { String(cString: $0) } }.joined(separator: " ")
                collector.inbox.post(.listed(.server(
                    name: SafeText.sanitized(name, limit: 200),
                    defaultSink: info?.pointee.default_sink_name.map { String(cString: $0) },
                    defaultSource: info?.pointee.default_source_name.map { String(cString: $0) })))
            }, userdata) { pa_operation_unref(operation) }
            if let operation = pa_context_get_sink_info_list(connection.context, { _, info, eol, userdata in
                guard let userdata else { return }
                let collector = Unmanaged<PulseListCollector>.fromOpaque(userdata).takeUnretainedValue()
                if let info, let name = info.pointee.name, collector.sinks.count < PulseListCollector.maximumDevices {
                    collector.sinks[Int(info.pointee.index)] = String(cString: name)
                }
                if eol != 0 { collector.inbox.post(.listed(.sinks(collector.sinks))) }
            }, userdata) { pa_operation_unref(operation) }
            if let operation = pa_context_get_source_info_list(connection.context, { _, info, eol, userdata in
                guard let userdata else { return }
                let collector = Unmanaged<PulseListCollector>.fromOpaque(userdata).takeUnretainedValue()
                if let info, let name = info.pointee.name, collector.sources.count < PulseListCollector.maximumDevices {
                    let description = info.pointee.description.map { String(cString: $0) } ?? ""
                    collector.sources.append((info.pointee.monitor_of_sink, PulseDeviceList.Device(
                        name: String(cString: name), description: SafeText.sanitized(description, limit: 200),
                        monitoredSink: nil)))
                }
                if eol != 0 { collector.inbox.post(.listed(.sources(collector.sources))) }
            }, userdata) { pa_operation_unref(operation) }
        }
    }
}
