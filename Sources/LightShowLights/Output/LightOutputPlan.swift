#if canImport(Glibc)
import Glibc
#endif
import LightShowCore
import LightShowSystem

/// One configured output made ready to send: its host resolved and its socket open. Plans are made at start and
/// on reload, never per frame, then handed to the sender thread.
struct LightOutputPlan: Sendable {
    /// Position in the config, counting from 1 (`lights[1]`).
    let index: Int
    let settings: LightOutputSettings
    let destination: InternetAddress
    let socket: UDPSocket
    /// Hue: the bridge, pairing and area (the destination is its DTLS stream port).
    var hue: HueTarget?

    var name: String { settings.displayName(index: index) }

    /// What shares a sequence counter: one universe (or DDP display) at one address.
    var key: DestinationKey {
        DestinationKey(networkProtocol: settings.networkProtocol, destination: destination, universe: settings.universe, area: settings.area)
    }

    /// `sacn 239.255.0.1:5568 universe 1`, `ddp 127.0.0.1:4048`.
    var destinationText: String {
        if let hue { return "hue \(hue.bridge) area \"\(settings.area)\"" }
        let text = "\(settings.networkProtocol.rawValue) \(destination)"
        return settings.networkProtocol.isDMX ? text + " universe \(settings.universe)" : text
    }
}

/// One receiver's stream: a universe, or a DDP display, at one address.
struct DestinationKey: Hashable, Sendable {
    let networkProtocol: LightOutputSettings.NetworkProtocol
    let destination: InternetAddress
    let universe: Int
    /// Hue: the entertainment area (one bridge streams one area at a time, but a config may name several).
    let area: String
}

/// Turns `[[lights]]` settings into plans: resolves hosts (sACN without an address: the universe's multicast
/// group) and opens one non-blocking socket per output.
enum LightOutputPlanner {
    /// Plans for every entry; an unresolvable host is a config error (exit 78) naming the entry.
    static func plans(for settings: [LightOutputSettings], stateDirectory: String? = nil) throws(LightShowError) -> [LightOutputPlan] {
        let planned = try plans(for: settings, resolve: resolve) { path, error throws(LightShowError) in
            throw LightShowError("\(path): \(error)", exitStatus: .config)
        }
        return try planned.map { plan throws(LightShowError) in try HueTarget.attach(to: plan, stateDirectory: stateDirectory) }
    }

    /// Plans for a reload. A host that no longer resolves keeps the address it had (logged through `failed`);
    /// a new entry whose host doesn't resolve is left out until a later reload.
    static func replans(
        for settings: [LightOutputSettings], previous: [LightOutputPlan], stateDirectory: String? = nil,
        resolve: (LightOutputSettings) throws(AddressResolutionError) -> InternetAddress = LightOutputPlanner.resolve,
        failed: (String) -> Void
    ) throws(LightShowError) -> [LightOutputPlan] {
        let planned = try plans(for: settings, resolve: resolve) { path, error in
            let entry = settings[path.index - 1]
            let old = previous.first { old in
                old.settings.address == entry.address && old.settings.port == entry.port
                    && old.settings.networkProtocol == entry.networkProtocol
            }
            guard let old else {
                failed("\(path): \(error); this output stays off until a reload resolves it")
                return nil
            }
            failed("\(path): \(error); keeping \(old.destination)")
            return old.destination
        }
        // A Hue output whose pairing can't be read stays off until a reload finds it.
        return planned.compactMap { plan in
            do throws(LightShowError) { return try HueTarget.attach(to: plan, stateDirectory: stateDirectory) } catch {
                failed("lights[\(plan.index)]: \(error.message); this output stays off until a reload finds it")
                return nil
            }
        }
    }

    /// Where an entry's address is, for messages: `lights[2].address`.
    struct AddressPath: CustomStringConvertible {
        let index: Int
        var description: String { "lights[\(index)].address" }
    }

    /// Resolves each entry and opens its socket; `unresolved` decides about a host that doesn't resolve: an
    /// address to use instead, nil to leave the entry out, or a thrown error.
    private static func plans(
        for settings: [LightOutputSettings],
        resolve: (LightOutputSettings) throws(AddressResolutionError) -> InternetAddress,
        unresolved: (AddressPath, AddressResolutionError) throws(LightShowError) -> InternetAddress?
    ) throws(LightShowError) -> [LightOutputPlan] {
        var plans: [LightOutputPlan] = []
        for (offset, entry) in settings.enumerated() {
            let destination: InternetAddress
            do {
                destination = try resolve(entry)
            } catch {
                guard let fallback = try unresolved(AddressPath(index: offset + 1), error) else { continue }
                destination = fallback
            }
            plans.append(try plan(entry, index: offset + 1, destination: destination))
        }
        return plans
    }

    /// The output's address: the host (looked up), or for sACN without one, the universe's multicast group.
    static func resolve(_ settings: LightOutputSettings) throws(AddressResolutionError) -> InternetAddress {
        let port = UInt16(clamping: settings.networkProtocol == .hue ? settings.streamPort : settings.port)
        if settings.networkProtocol == .sacn, settings.address.isEmpty {
            let group = SACNPacket.multicastGroup(universe: settings.universe)
            guard let address = InternetAddress(ipv4: group, port: port) else {
                throw AddressResolutionError(host: group, reason: "not an IPv4 address")
            }
            return address
        }
        return try InternetAddress.resolve(host: settings.address, port: port)
    }

    private static func plan(
        _ settings: LightOutputSettings, index: Int, destination: InternetAddress
    ) throws(LightShowError) -> LightOutputPlan {
        do throws(SystemCallError) {
            let socket = try UDPSocket(family: destination.family)
            if settings.networkProtocol.takesInterface, !settings.interface.isEmpty {
                guard let interface = InternetAddress(ipv4: settings.interface, port: 0) else {
                    throw SystemCallError("interface \(settings.interface)", code: EINVAL)
                }
                try socket.setMulticastInterface(interface)
            }
            return LightOutputPlan(index: index, settings: settings, destination: destination, socket: socket)
        } catch {
            throw LightShowError("lights[\(index)]: \(error)", exitStatus: .ioError)
        }
    }
}
