import LightShowCore

/// `[mqtt]`: broker ("" = off), client_id, username, password or password_file, tls, ca_file, discovery_prefix,
/// base_topic. Each string is checked for form here; the broker's name is looked up when the daemon connects.
enum MQTTSection: ConfigSection {
    static let name = "mqtt"
    /// Longest topic prefix accepted (MQTT allows 65535 bytes; Home Assistant's own are a few dozen).
    static let maximumTopicBytes = 200

    static func read(_ section: SectionReader, into configuration: inout Configuration) {
        var settings = configuration.mqtt
        if let broker = section.string("broker") {
            if broker.isEmpty {
                settings.broker = ""
            } else if let (host, _) = MQTTSettings.hostAndPort(broker), HostSyntax.problem(in: host) == nil {
                settings.broker = broker
            } else {
                section.error("broker", "expected \"HOST\" or \"HOST:PORT\" (port 1-65535) such as \"localhost:1883\", found \"\(SafeText.sanitized(broker, limit: 80))\"")
            }
        }
        section.plainText("client_id", maximumBytes: 64).assign(to: &settings.clientID)
        section.plainText("username", maximumBytes: 256).assign(to: &settings.username)
        section.plainText("password", maximumBytes: 256).assign(to: &settings.password)
        section.plainText("password_file", maximumBytes: 4096).assign(to: &settings.passwordFile)
        if !settings.password.isEmpty, !settings.passwordFile.isEmpty {
            section.error("password_file", "set password or password_file, not both")
        }
        section.boolean("tls").assign(to: &settings.tls)
        section.plainText("ca_file", maximumBytes: 4096).assign(to: &settings.caFile)
        if !settings.caFile.isEmpty, !settings.tls {
            section.warning("ca_file", "is used only with tls = true; ignored")
        }
        topic(section, "discovery_prefix", allowEmpty: false).assign(to: &settings.discoveryPrefix)
        topic(section, "base_topic", allowEmpty: true).assign(to: &settings.baseTopic)
        configuration.mqtt = settings
    }

    /// A topic prefix: levels separated by `/`, no wildcards (`+`, `#`), no empty level at either end.
    private static func topic(_ section: SectionReader, _ key: String, allowEmpty: Bool) -> String? {
        guard let text = section.plainText(key, maximumBytes: maximumTopicBytes) else { return nil }
        if text.isEmpty {
            if allowEmpty { return text }
            section.error(key, "expected a topic such as \"homeassistant\", found an empty string")
            return nil
        }
        if text.contains("+") || text.contains("#") || text.hasPrefix("/") || text.hasSuffix("/") || text.contains("//") {
            section.error(key, "expected a topic such as \"lightshow/den\" (levels joined by /, no + or #, no empty level), found \"\(SafeText.sanitized(text, limit: 80))\"")
            return nil
        }
        return text
    }
}
