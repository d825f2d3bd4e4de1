import LightShowCore
import LightShowSystem

/// Everything a Hue output needs to stream, fixed when the output is planned (start, reload): the bridge's
/// resolved addresses, the pairing, the area and which band each channel follows.
struct HueTarget: Sendable, Equatable {
    /// The bridge as configured, for messages: `192.168.1.30` or `bridge.local:8443`.
    let bridge: String
    /// `https://192.168.1.30:443`.
    let base: String
    /// The DTLS stream's address (`stream_port`).
    let stream: InternetAddress
    let pairing: HuePairing
    /// The area's name or id, as configured.
    let area: String
    let overrides: [Int: Band]

    /// The target for `settings`, whose stream address is `stream`; the pairing comes from `store`. A bridge that
    /// was never paired is an error that says how to pair it.
    init(settings: LightOutputSettings, stream: InternetAddress, store: HuePairingStore) throws(LightShowError) {
        let bridge = settings.port == LightOutputSettings.NetworkProtocol.hue.defaultPort ? settings.address : "\(settings.address):\(settings.port)"
        guard let pairing = try store.load(host: settings.address, port: settings.port) else {
            throw LightShowError(
                "not paired with the Hue bridge at \(bridge): run `lightshow lights pair-hue \(bridge)` with the same state directory "
                    + "(looked for \(store.path(host: settings.address, port: settings.port)))",
                exitStatus: .config
            )
        }
        self.bridge = bridge
        // The stream's resolved host with the API's port: one lookup serves both.
        let text = stream.description
        let host = text.lastIndex(of: ":").map { String(text[..<$0]) } ?? text
        base = "https://\(host):\(settings.port)"
        self.stream = stream
        self.pairing = pairing
        area = settings.area
        overrides = settings.channelBands
    }

    /// What to do about a pairing that no longer works.
    var pairAgain: String { "pair again with `lightshow lights pair-hue \(bridge)`" }

    /// `plan` with its Hue target when it is a Hue output (unchanged otherwise).
    static func attach(to plan: LightOutputPlan, stateDirectory: String?) throws(LightShowError) -> LightOutputPlan {
        guard plan.settings.networkProtocol == .hue else { return plan }
        guard let stateDirectory else {
            throw LightShowError("lights[\(plan.index)]: Hue needs a state directory for its pairing (set STATE_DIRECTORY, XDG_STATE_HOME or HOME)", exitStatus: .config)
        }
        var plan = plan
        do {
            plan.hue = try HueTarget(settings: plan.settings, stream: plan.destination, store: HuePairingStore(stateDirectory: stateDirectory))
        } catch {
            throw LightShowError("lights[\(plan.index)]: \(error.message)", exitStatus: error.exitStatus)
        }
        return plan
    }
}
