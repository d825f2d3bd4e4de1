import LightShowControl
import Testing

/// The settings line the daemon hands the web server's process: read back as written, and each bad member named.
@Suite struct WebProcessSettingsTests {
    static let settings = WebProcessSettings(
        socketPath: "/run/lightshow/control.sock", host: "::1", port: 8490, extraHosts: ["lights.lan", "192.168.1.5"],
        token: "a-token-of-32-bytes-or-so-123456",
        limits: WebLimits(maxConnections: 7, idleTimeoutSeconds: 12.5, requestTimeoutSeconds: 3, maxBodyBytes: 999, maxHeaderBytes: 2048)
    )

    @Test func aLineReadsBackAsWritten() throws {
        #expect(try WebProcessSettings.parse(Array(Self.settings.line.dropLast())).get() == Self.settings)
        var noToken = Self.settings
        noToken.token = nil
        #expect(try WebProcessSettings.parse(Array(noToken.line.dropLast())).get() == noToken)
    }

    @Test(arguments: [
        (#"{"host":"h","port":1}"#, #""socket": expected a path"#),
        (#"{"socket":"s","host":"h","port":1.5}"#, #""port": expected a port, 0 to 65535"#),
        (#"{"socket":"s","host":"h","port":1,"hosts":[1]}"#, #""hosts": expected an array of names"#),
        (#"{"socket":"s","host":"h","port":1,"token":5}"#, #""token": expected a string or null"#),
        (#"{"socket":"s","host":"h","port":1,"max_connections":0}"#, #""max_connections": expected 1 to 1000000"#),
        (#"{"socket":"s","host":"h","port":1,"max_connections":1,"idle_timeout":-1}"#, #""idle_timeout": expected seconds, more than 0"#),
        ("[1", "not JSON"),
    ])
    func eachBadMemberIsNamed(line: String, message: String) {
        guard case .failure(let error) = WebProcessSettings.parse(Array(line.utf8)) else {
            Issue.record("\(line) was accepted")
            return
        }
        #expect(error.description.contains(message), "\(error)")
    }
}
