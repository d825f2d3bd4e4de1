public import LightShowCore
import LightShowControl
import LightShowSystem

/// What pairing with a bridge yields, kept in the state directory (mode 0600, never in the config file): the
/// application key for its HTTPS API, the client key and application id for the DTLS stream, and the SHA-256 of
/// the certificate it presented, pinned from then on.
public struct HuePairing: Sendable, Equatable {
    public var applicationKey: String
    /// The 16-byte pre-shared key of the stream.
    public var clientKey: [UInt8]
    /// The stream's PSK identity (the `hue-application-id` header).
    public var applicationID: String
    /// Lowercase hex.
    public var certificateSHA256: String

    public init(applicationKey: String, clientKey: [UInt8], applicationID: String, certificateSHA256: String) {
        self.applicationKey = applicationKey
        self.clientKey = clientKey
        self.applicationID = applicationID
        self.certificateSHA256 = certificateSHA256
    }

    /// Checks values that came from a bridge (or a file) before they are stored or used in a header or a handshake:
    /// nil when one has the wrong form.
    public init?(applicationKey: String, clientKeyHex: String, applicationID: String, certificateSHA256: String) {
        guard Self.isToken(applicationKey, maximum: 128), clientKeyHex.utf8.count == 32,
              let clientKey = HexText.decode(clientKeyHex), Self.isToken(applicationID, maximum: 64),
              certificateSHA256.utf8.count == 64, HexText.decode(certificateSHA256) != nil else { return nil }
        self.init(
            applicationKey: applicationKey, clientKey: clientKey, applicationID: applicationID,
            certificateSHA256: certificateSHA256.lowercased()
        )
    }

    /// Letters, digits, `-` and `_`: safe in a header line and a log.
    static func isToken(_ text: String, maximum: Int) -> Bool {
        !text.isEmpty && text.utf8.count <= maximum
            && text.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_") }
    }

    var json: [UInt8] {
        let value: JSONValue = [
            "application_key": .string(applicationKey), "client_key": .string(HexText.encode(clientKey)),
            "application_id": .string(applicationID), "certificate_sha256": .string(certificateSHA256),
        ]
        return value.line
    }

    init?(json bytes: [UInt8]) {
        guard let value = try? JSONParser.parse(bytes),
              let key = value["application_key"]?.stringValue, let client = value["client_key"]?.stringValue,
              let id = value["application_id"]?.stringValue, let certificate = value["certificate_sha256"]?.stringValue
        else { return nil }
        self.init(applicationKey: key, clientKeyHex: client, applicationID: id, certificateSHA256: certificate)
    }
}

/// Where pairings live: `<state directory>/hue/<host>_<port>.json`, one file a bridge.
public struct HuePairingStore: Sendable {
    public let directory: String

    /// `stateDirectory` as `LightsStateDirectory.path` finds it.
    public init(stateDirectory: String) {
        directory = stateDirectory + "/hue"
    }

    /// The file for a bridge. The host passed the config's host check (letters, digits, `.`, `-`, `:`), so the name
    /// can't leave the directory; `:` (IPv6) becomes `_`.
    public func path(host: String, port: Int) -> String {
        let safe = String(host.lowercased().map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" ? $0 : "_" })
        return "\(directory)/\(safe.hasPrefix(".") ? "_" + safe : safe)_\(port).json"
    }

    /// The stored pairing, nil when the bridge was never paired; a file that can't be read or holds something else
    /// is an error naming it.
    public func load(host: String, port: Int) throws(LightShowError) -> HuePairing? {
        let file = SmallFile(path: path(host: host, port: port))
        let bytes: [UInt8]?
        do { bytes = try file.read(limit: 4096) } catch {
            throw LightShowError("\(error)", exitStatus: .ioError)
        }
        guard let bytes else { return nil }
        guard let pairing = HuePairing(json: bytes) else {
            throw LightShowError("\(file.path) does not hold a Hue pairing; pair again with `lightshow lights pair-hue \(host)`", exitStatus: .config)
        }
        return pairing
    }

    /// Stores (or replaces) a bridge's pairing, mode 0600.
    public func save(_ pairing: HuePairing, host: String, port: Int) throws(LightShowError) {
        do { try SmallFile(path: path(host: host, port: port)).replace(pairing.json, mode: 0o600) } catch {
            throw LightShowError("\(error)", exitStatus: .ioError)
        }
    }
}
