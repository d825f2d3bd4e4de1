import LightShowCore

/// `[control]`: the daemon's control socket.
enum ControlSection: ConfigSection {
    static let name = "control"

    static func read(_ section: SectionReader, into configuration: inout Configuration) {
        section.string("socket").assign(to: &configuration.control.socket)
        section.integer("max_clients", in: 1...1024).assign(to: &configuration.control.maxClients)
        section.duration("idle_timeout", in: 0.1...3600).assign(to: &configuration.control.idleTimeoutSeconds)
    }
}
