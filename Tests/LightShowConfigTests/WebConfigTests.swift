import LightShowCore
import Testing
@testable import LightShowConfig

/// `[web]`: off by default, the listen address's forms, the token rule for addresses beyond loopback, and every bad
/// key reported with its path and line.
@Suite struct WebConfigTests {
    static func messages(_ toml: String) -> [String] {
        ConfigurationLoader.parse(toml).diagnostics.map { "\($0.line.map(String.init) ?? "-"): \($0.keyPath ?? "-"): \($0.message)" }
    }

    @Test func offUnlessListenIsSet() {
        #expect(!Configuration.defaults.web.isEnabled)
        let report = ConfigurationLoader.parse("""
            [web]
            listen = "127.0.0.1:8490"
            hosts = ["lightshow.local"]
            max_connections = 10
            idle_timeout = "5s"
            request_timeout = "2s"
            max_body = 1024

            """)
        #expect(report.diagnostics.isEmpty)
        let web = report.configuration.web
        #expect(web.isEnabled && web.isLoopbackOnly)
        #expect(web.address! == ("127.0.0.1", 8490))
        #expect(web.hosts == ["lightshow.local"])
        #expect(web.maxConnections == 10 && web.idleTimeoutSeconds == 5 && web.requestTimeoutSeconds == 2 && web.maxBodyBytes == 1024)
    }

    @Test func listenForms() {
        #expect(WebSettings.address("localhost")! == ("localhost", 8490))
        #expect(WebSettings.address("[::1]:9000")! == ("::1", 9000))
        #expect(WebSettings.address("0.0.0.0:0")! == ("0.0.0.0", 0))
        for bad in ["host:", "host:65536", "host:x", "[::1", ":8490"] {
            #expect(WebSettings.address(bad) == nil, "\(bad)")
        }
        for loopback in ["127.0.0.1", "127.1.2.3", "localhost", "::1", "LOCALHOST"] {
            #expect(HostAndPort.isLoopback(loopback), "\(loopback)")
        }
        for other in ["0.0.0.0", "::", "192.168.1.2", "127.0.0.1.example.com", "1270.0.0.1", "lightshow.local"] {
            #expect(!HostAndPort.isLoopback(other), "\(other)")
        }
    }

    @Test func anAddressBeyondLoopbackNeedsAToken() {
        #expect(Self.messages("[web]\nlisten = \"0.0.0.0:8490\"\n") == [
            #"2: web.listen: "0.0.0.0:8490" is reachable from other machines: set web.token or web.token_file (or listen on "127.0.0.1:8490")"#,
        ])
        #expect(Self.messages("[web]\nlisten = \"192.168.1.20:8490\"\ntoken = \"0123456789abcdef\"\n").isEmpty)
        #expect(Self.messages("[web]\nlisten = \"[::]:8490\"\ntoken_file = \"/run/credentials/lightshow.service/web-token\"\n").isEmpty)
    }

    @Test func badKeysNameTheirPathAndLine() {
        let problems = Self.messages("""
            [web]
            listen = "bad host!:99999"
            token = "short"
            token_file = "/etc/token"
            hosts = ["ok.local", "bad host"]
            max_connections = 0
            idle_timeout = "0s"
            request_timeout = 5
            max_body = 10

            """)
        #expect(problems == [
            #"2: web.listen: expected "HOST:PORT" (port 0-65535) such as "127.0.0.1:8490", found "bad host!:99999""#,
            "3: web.token: 5 bytes is below the minimum 16; make one with `openssl rand -hex 16`",
            #"5: web.hosts: expected host names or addresses such as ["lightshow.local", "192.168.1.20"], found "bad host""#,
            "6: web.max_connections: 0 is below the minimum 1",
            "7: web.idle_timeout: 0s is below the minimum 1s",
            #"8: web.request_timeout: expected a duration like "10s", "500ms", "2m" or "1h30m", found an integer"#,
            "9: web.max_body: 10 is below the minimum 256",
        ])
        #expect(Self.messages("[web]\ntoken = \"0123456789abcdef\"\ntoken_file = \"/etc/t\"\n") == [
            "3: web.token_file: set token or token_file, not both",
        ])
        #expect(Self.messages("[web]\nhosts = \"one.local\"\n") == ["2: web.hosts: expected an array of strings, found a string"])
        #expect(Self.messages("[web]\nhosts = [1]\n") == ["2: web.hosts: entry 1: expected a string, found an integer"])
    }
}
