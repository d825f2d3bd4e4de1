import LightShowCore

/// `[web]`: listen ("" = off), token or token_file, hosts, max_connections, idle_timeout, request_timeout,
/// max_body. A listen address other than loopback needs a token.
enum WebSection: ConfigSection {
    static let name = "web"

    static func read(_ section: SectionReader, into configuration: inout Configuration) {
        var settings = configuration.web
        if let listen = section.string("listen") {
            if listen.isEmpty {
                settings.listen = ""
            } else if let (host, _) = WebSettings.address(listen), HostSyntax.problem(in: host) == nil {
                settings.listen = listen
            } else {
                section.error("listen", "expected \"HOST:PORT\" (port 0-65535) such as \"\(WebSettings.usualListen)\", found \"\(SafeText.sanitized(listen, limit: 80))\"")
            }
        }
        if let token = section.plainText("token", maximumBytes: 256) {
            if !token.isEmpty, token.utf8.count < WebSettings.minimumTokenBytes {
                section.error("token", "\(token.utf8.count) bytes is below the minimum \(WebSettings.minimumTokenBytes); make one with `openssl rand -hex 16`")
            } else if token.contains(" ") {
                section.error("token", "spaces are not allowed")
            } else {
                settings.token = token
            }
        }
        section.plainText("token_file", maximumBytes: 4096).assign(to: &settings.tokenFile)
        if !settings.token.isEmpty, !settings.tokenFile.isEmpty {
            section.error("token_file", "set token or token_file, not both")
        }
        if let hosts = section.plainTexts("hosts", limit: 32, maximumBytes: 253) {
            if let bad = hosts.first(where: { $0.isEmpty || HostSyntax.problem(in: $0) != nil }) {
                section.error("hosts", "expected host names or addresses such as [\"lightshow.local\", \"192.168.1.20\"], found \"\(SafeText.sanitized(bad, limit: 80))\"")
            } else {
                settings.hosts = hosts
            }
        }
        section.integer("max_connections", in: 1...4096).assign(to: &settings.maxConnections)
        section.duration("idle_timeout", in: 1...3600).assign(to: &settings.idleTimeoutSeconds)
        section.duration("request_timeout", in: 1...300).assign(to: &settings.requestTimeoutSeconds)
        section.integer("max_body", in: 256...1_048_576).assign(to: &settings.maxBodyBytes)
        if settings.isEnabled, !settings.isLoopbackOnly, !settings.hasToken {
            section.error("listen", "\"\(SafeText.sanitized(settings.listen, limit: 80))\" is reachable from other machines: set web.token or web.token_file (or listen on \"\(WebSettings.usualListen)\")")
        }
        configuration.web = settings
    }
}
