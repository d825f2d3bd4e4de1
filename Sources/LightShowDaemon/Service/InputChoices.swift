import LightShowAudio
import LightShowCore

/// The inputs a client may switch to (`set-input` from the control socket, the web and MQTT, and Home Assistant's
/// select): `demo`, the configured input, and what `lightshow devices` lists (the sound server's sources when one
/// answers, ALSA's capture devices). A client chooses from this list and never types a name: an ALSA name is a
/// program (`file:'|cmd'` runs a shell), so only names the daemon found itself are offered, less those whose
/// definition writes files, runs programs or loads code. Reading the list blocks (a sound server may take its
/// time): call it off the cooperative pool.
enum InputChoices {
    /// Names offered at most.
    static let maximumCount = 100
    /// Longest name offered.
    static let maximumNameBytes = 255

    /// The names offered now, `demo` and the configured input first. The sound server is asked only when
    /// `askingSoundServer`: that loads libpulse, which a daemon that never uses it shouldn't map.
    static func names(configured: InputSpec, askingSoundServer: Bool = true) -> [String] {
        var names = ["demo", configured.spelling]
        if askingSoundServer, (try? PulseLibrary.load()) != nil, let list = try? PulseDeviceList.current(timeout: 1) {
            names.append("pulse")
            names += (list.monitors + list.sources).map { "pulse:\($0.name)" }
        }
        let alsa = ALSADeviceList.current()
        names += alsa.cardDevices.map { "alsa:\($0.name)" }
        names += alsa.configuredDevices.filter { ALSAPCMDefinition.inspect($0.name).risk == nil }.map { "alsa:\($0.name)" }
        var seen = Set<String>()
        // A name with control characters couldn't be shown as it is, so it couldn't be chosen either.
        let shown = names.filter { $0.utf8.count <= maximumNameBytes && SafeText.sanitized($0) == $0 }
        return Array(shown.filter { seen.insert($0).inserted }.prefix(maximumCount))
    }

    /// Why a client may not switch to `text`, given the names offered; nil when it is one of them.
    static func refusal(_ text: String, offered: [String]) -> String? {
        guard !offered.contains(text) else { return nil }
        return "input: \(SafeText.sanitized(text, limit: 80)) is not one the daemon offers; choose one of `status` inputs "
            + "(demo, the configured input, and what `lightshow devices` lists)"
    }
}
