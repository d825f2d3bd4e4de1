import LightShowCore

/// `[[lights]]`: network light outputs, one table each, numbered from 1 in key paths (`lights[2].universe`).
/// Ranges depend on the protocol, so `protocol` is read first; a key the protocol or layout doesn't use is a
/// warning. Host names are only checked for form here: the outputs resolve them at start and on reload.
enum LightsSection: ConfigSection {
    static let name = "lights"
    /// Most outputs one file may configure.
    static let maximumCount = 64
    /// Longest strip, in pixels (a DDP frame of 10000 pixels is 21 packets).
    static let maximumPixels = 10_000

    /// The file's entries are the whole list: they replace the base's rather than merge with it by position.
    /// Two DMX entries may not send the same universe to the same address: each sends the whole universe up to
    /// its last channel, so they would overwrite each other's fixtures many times a second.
    static func read(from top: SectionReader, into configuration: inout Configuration) {
        configuration.lights = []
        var universes: [String: Int] = [:]
        var index = 0
        top.tables(name, limit: maximumCount) { entry in
            index += 1
            let before = configuration.lights.count
            read(entry, into: &configuration)
            guard configuration.lights.count > before, let added = configuration.lights.last, added.networkProtocol.isDMX else { return }
            let stream = "\(added.networkProtocol) \(added.address) \(added.port) \(added.universe)"
            if let first = universes[stream] {
                entry.error("universe", "universe \(added.universe) at this address is already sent by lights[\(first)]; one [[lights]] per DMX universe")
                configuration.lights.removeLast()
            } else {
                universes[stream] = index
            }
        }
    }

    /// Reads one entry and appends it when it is valid. Every key is read even after an error, so one pass
    /// reports every problem and no key is taken for unknown.
    static func read(_ entry: SectionReader, into configuration: inout Configuration) {
        let choices = "\"ddp\", \"sacn\", \"artnet\", \"wled-sync\" or \"hue\""
        let networkProtocol = entry.parsed("protocol", expected: choices, LightOutputSettings.NetworkProtocol.init(rawValue:))
        if !entry.contains("protocol") { entry.error("protocol", "required: \(choices)") }
        let errorsBefore = entry.errorCount
        var settings = LightOutputSettings(protocol: networkProtocol ?? .ddp)
        // Hue and WLED audio sync read keys of their own; the picture's keys are unknown there.
        if networkProtocol == .hue {
            HueLightsKeys.read(entry, into: &settings)
        } else {
            readDestination(entry, into: &settings, known: networkProtocol != nil)
            if settings.networkProtocol == .wledSync {
                readAudioSync(entry)
            } else {
                readLayout(entry, into: &settings, known: networkProtocol != nil)
            }
            readSACN(entry, into: &settings)
        }
        entry.number("fps", in: 1...120).assign(to: &settings.framesPerSecond)
        entry.number("brightness", in: 0...1).assign(to: &settings.brightness)
        entry.number("gamma", in: 1...3).assign(to: &settings.gamma)
        entry.number("delay", in: 0...OutputSettings.maximumDelayMilliseconds).assign(to: &settings.delayMilliseconds)
        entry.plainText("name", maximumBytes: 64).assign(to: &settings.name)
        if networkProtocol != nil, entry.errorCount == errorsBefore {
            configuration.lights.append(settings)
        }
    }

    private static func readDestination(_ entry: SectionReader, into settings: inout LightOutputSettings, known: Bool) {
        let networkProtocol = settings.networkProtocol
        var addressProblem = false
        if let address = entry.string("address") {
            if let problem = HostSyntax.problem(in: address) {
                entry.error("address", problem)
                addressProblem = true
            } else {
                settings.address = address
            }
        }
        if known, !addressProblem, settings.address.isEmpty, networkProtocol != .sacn {
            entry.error("address", "required for \(networkProtocol.rawValue): the light's host name or IP address")
        }
        entry.integer("port", in: 1...65535).assign(to: &settings.port)
        switch networkProtocol {
        case .sacn: entry.integer("universe", in: 1...63999).assign(to: &settings.universe)
        case .artnet: entry.integer("universe", in: 0...32767).assign(to: &settings.universe)
        case .ddp, .hue, .wledSync: unused(entry, "universe", "is not used by \(networkProtocol.rawValue)", when: known)
        }
    }

    private static func readLayout(_ entry: SectionReader, into settings: inout LightOutputSettings, known: Bool) {
        let isDMX = settings.networkProtocol.isDMX
        entry.parsed("layout", expected: "\"fixtures\" or \"strip\"", LightOutputSettings.Layout.init(rawValue:))
            .assign(to: &settings.layout)
        // The layout decides gamma's default; a `gamma` key read later overrides it.
        settings.gamma = LightOutputSettings.defaultGamma(settings.networkProtocol, settings.layout)
        let startLimit = isDMX ? 512 : maximumPixels
        entry.integer("start", in: 1...startLimit).assign(to: &settings.start)
        let pixelLimit = isDMX ? settings.maximumDMXPixels : maximumPixels
        switch settings.layout {
        case .strip:
            if entry.contains("pixels") {
                entry.integer("pixels", in: 3...max(3, pixelLimit)).assign(to: &settings.pixels)
            } else if known {
                entry.error("pixels", "required for layout strip: the number of LEDs, 3..\(max(3, pixelLimit))")
            }
            if isDMX, settings.pixels > 0, settings.start - 1 + settings.footprint > 512 {
                entry.error("pixels", "\(settings.pixels) pixels from channel \(settings.start) end past channel 512")
            }
            entry.boolean("background").assign(to: &settings.background)
        case .fixtures:
            unused(entry, "pixels", "is used only by layout strip")
            unused(entry, "background", "is used only by layout strip")
            if isDMX, settings.start > 504 {
                entry.error("start", "\(settings.start) leaves no room for three fixtures of three channels; the maximum is 504")
            }
        }
    }

    private static func readSACN(_ entry: SectionReader, into settings: inout LightOutputSettings) {
        guard settings.networkProtocol == .sacn else {
            for key in ["priority", "source_name"] { unused(entry, key, "is used only by sacn") }
            if settings.networkProtocol.takesInterface {
                readInterface(entry, into: &settings)
            } else {
                unused(entry, "interface", "is used only by sacn and wled-sync")
            }
            return
        }
        entry.integer("priority", in: 0...200).assign(to: &settings.priority)
        entry.plainText("source_name", maximumBytes: 63).assign(to: &settings.sourceName)
        readInterface(entry, into: &settings)
    }

    private static func readInterface(_ entry: SectionReader, into settings: inout LightOutputSettings) {
        if let interface = entry.string("interface") {
            if interface.isEmpty || HostSyntax.isIPv4Literal(interface) {
                settings.interface = interface
            } else {
                entry.error("interface", "expected the interface's IPv4 address such as \"192.168.1.10\", found \"\(interface)\"")
            }
        }
    }

    /// Warns when `key` is set although it has no effect (reading it also marks it known).
    static func unused(_ entry: SectionReader, _ key: String, _ why: String, when applies: Bool = true) {
        if entry.contains(key), applies { entry.warning(key, "\(why); ignored") }
    }
}

/// The form of a host name or numeric address, checked before any lookup.
enum HostSyntax {
    /// Why `text` can't be a host, or nil when it can be ("" included: the protocol decides if it is allowed).
    static func problem(in text: String) -> String? {
        guard text.utf8.count <= 253 else { return "\(text.utf8.count) bytes is above the maximum 253 for a host" }
        let allowed = text.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || ".-:".unicodeScalars.contains(scalar))
        }
        guard allowed, !text.hasPrefix("-"), !text.contains("..") else {
            return "expected a host name or IP address such as \"wled.local\" or \"192.168.1.50\""
        }
        return nil
    }

    /// Four dot-separated decimal numbers 0…255.
    static func isIPv4Literal(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in
            (1...3).contains(part.count) && part.allSatisfy(\.isASCII) && UInt8(part) != nil
        }
    }
}
