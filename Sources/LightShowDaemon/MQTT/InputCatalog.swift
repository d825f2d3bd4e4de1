import LightShowAudio
import LightShowCore

/// The inputs Home Assistant's select offers: `demo`, the configured one, and every name `lightshow devices` lists
/// (PulseAudio's when a server answers, ALSA's). Asked once when MQTT starts; it blocks (a sound server may take
/// its time), so call it off the cooperative pool.
enum InputCatalog {
    /// Options Home Assistant is offered at most.
    static let maximumCount = 100

    static func names(configured: InputSpec) -> [String] {
        var names = ["demo", configured.description]
        if (try? PulseLibrary.load()) != nil, let list = try? PulseDeviceList.current(timeout: 1) {
            names.append("pulse")
            names += (list.monitors + list.sources).map { "pulse:\($0.name)" }
        }
        let alsa = ALSADeviceList.current()
        names += (alsa.cardDevices + alsa.configuredDevices).map { "alsa:\($0.name)" }
        var seen = Set<String>()
        return Array(names.filter { seen.insert($0).inserted && $0.utf8.count <= 255 }.prefix(maximumCount))
    }
}
