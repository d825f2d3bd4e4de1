public import LightShowCore
import LightShowControl
import LightShowSystem

/// `lightshow lights pair-hue`: asks a bridge for an application key and a client key while its link button is
/// pressed, learns the application id, pins the bridge's certificate and stores the pairing, then lists the
/// bridge's entertainment areas. Blocking: run it on a thread of its own.
public struct HuePairer: Sendable {
    public let host: String
    public let port: Int
    public let store: HuePairingStore
    /// How long to keep asking while the link button isn't pressed.
    public var waitSeconds = 30.0
    /// Between two asks.
    public var retrySeconds = 1.0

    public init(host: String, port: Int, store: HuePairingStore) {
        self.host = host
        self.port = port
        self.store = store
    }

    /// `192.168.1.30`, or `bridge.local:8443` off the default port.
    var bridge: String {
        port == LightOutputSettings.NetworkProtocol.hue.defaultPort ? host : "\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }

    /// Pairs and returns the bridge's areas; `say` prints progress for the user.
    public func pair(say: (String) -> Void) throws(LightShowError) -> [HueEntertainmentArea] {
        let address: InternetAddress
        do { address = try InternetAddress.resolve(host: host, port: UInt16(clamping: port)) } catch {
            throw LightShowError("\(error)", exitStatus: .ioError)
        }
        let pinned = try store.load(host: host, port: port)?.certificateSHA256
        let client = try HueBridgeClient(base: "https://\(address)", pinnedCertificate: pinned)
        let (key, clientKey) = try askForKeys(client, say: say)
        let id = try call(client, .get, "/auth/v1", key: key).applicationID ?? ""
        guard let certificate = client.certificate,
              let pairing = HuePairing(applicationKey: key, clientKeyHex: clientKey, applicationID: id, certificateSHA256: certificate)
        else {
            throw LightShowError(
                "the Hue bridge at \(bridge) sent keys or an application id of an unexpected form; its software may predate the Entertainment API v2",
                exitStatus: .ioError
            )
        }
        try store.save(pairing, host: host, port: port)
        say("Paired with the Hue bridge at \(bridge) (certificate SHA-256 \(certificate)); stored in \(store.path(host: host, port: port))")
        let reply = try call(client, .get, "/clip/v2/resource/entertainment_configuration", key: key)
        guard reply.status == 200 else { throw LightShowError("the bridge at \(bridge) answered HTTP \(reply.status) to the area list", exitStatus: .ioError) }
        do { return try HueEntertainmentArea.list(from: reply.body) } catch {
            throw LightShowError("the area list from \(bridge): \(error)", exitStatus: .ioError)
        }
    }

    /// POST /api until the link button has been pressed (error 101 "link button not pressed") or time runs out.
    private func askForKeys(_ client: HueBridgeClient, say: (String) -> Void) throws(LightShowError) -> (String, String) {
        let device = "lightshow#" + String(HostName.current().filter { $0.isLetter || $0.isNumber || $0 == "-" }.prefix(19))
        let body: JSONValue = ["devicetype": .string(device), "generateclientkey": true]
        let deadline = MonotonicClock.seconds() + waitSeconds
        var asked = false
        while true {
            let reply = try call(client, .post, "/api", body: Array(body.description.utf8))
            let answer: JSONValue
            do { answer = try JSONParser.parse(reply.body) } catch {
                throw LightShowError("the bridge at \(bridge) answered POST /api with something other than JSON (\(error))", exitStatus: .ioError)
            }
            guard case .array(let items) = answer, let first = items.first else {
                throw LightShowError("the bridge at \(bridge) answered POST /api with HTTP \(reply.status) and no result", exitStatus: .ioError)
            }
            if let success = first["success"] {
                guard let key = success["username"]?.stringValue, let clientKey = success["clientkey"]?.stringValue else {
                    throw LightShowError("the bridge at \(bridge) sent no client key: its software is too old for the Entertainment API", exitStatus: .ioError)
                }
                return (key, clientKey)
            }
            let error = first["error"]
            guard error?["type"]?.numberValue == 101 else {
                let text = error?["description"]?.stringValue.map { SafeText.sanitized($0, limit: 200) } ?? "HTTP \(reply.status)"
                throw LightShowError("the bridge at \(bridge) refused to pair: \(text)", exitStatus: .ioError)
            }
            if !asked {
                say("Press the link button on the Hue bridge at \(bridge) (waiting up to \(Int(waitSeconds.rounded())) s)...")
                asked = true
            }
            guard MonotonicClock.seconds() + retrySeconds < deadline else {
                throw LightShowError(
                    "the link button of the Hue bridge at \(bridge) was not pressed within \(Int(waitSeconds.rounded())) s; press it, then run this again",
                    exitStatus: .ioError
                )
            }
            MonotonicClock.sleep(seconds: retrySeconds)
        }
    }

    private func call(_ client: HueBridgeClient, _ method: HueBridgeClient.Method, _ path: String, body: [UInt8]? = nil, key: String? = nil) throws(LightShowError) -> HueBridgeClient.Response {
        do { return try client.request(method, path, body: body, key: key, timeout: 5) } catch {
            if case .certificateChanged(let pinned, let presented) = error {
                throw LightShowError(
                    "the Hue bridge at \(bridge) presented a certificate (SHA-256 \(presented)) other than the one pinned when it was paired "
                        + "(\(pinned)). If you replaced or reset the bridge, delete \(store.path(host: host, port: port)) and pair again; "
                        + "otherwise something on the network may be posing as the bridge",
                    exitStatus: .ioError
                )
            }
            throw LightShowError("cannot reach the Hue bridge at \(bridge): \(error)", exitStatus: .ioError)
        }
    }
}
