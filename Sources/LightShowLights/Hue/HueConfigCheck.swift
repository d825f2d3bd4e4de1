public import LightShowCore
import LightShowSystem

/// What `lightshow config check` adds for Hue outputs, past the file's own checks: a bridge never paired, and, when
/// the bridge answers, an area it doesn't have or a channel the area doesn't have. Blocking (it asks the bridge):
/// run it on a thread of its own.
public enum HueConfigCheck {
    public struct Problem: Sendable, Equatable {
        public var isError: Bool
        /// `lights[2].area`.
        public var keyPath: String
        public var message: String
    }

    public static func problems(in lights: [LightOutputSettings], stateDirectory: String?) -> [Problem] {
        var problems: [Problem] = []
        for (offset, settings) in lights.enumerated() where settings.networkProtocol == .hue {
            let path = "lights[\(offset + 1)]"
            do throws(LightShowError) {
                problems += check(try target(for: settings, stateDirectory: stateDirectory), settings: settings, path: path)
            } catch {
                problems.append(Problem(isError: true, keyPath: path, message: error.message))
            }
        }
        return problems
    }

    /// The area a Hue output streams to, asked from its bridge (`lights test` lights its channels one by one).
    public static func area(for settings: LightOutputSettings, stateDirectory: String?) throws(LightShowError) -> HueEntertainmentArea {
        let target = try target(for: settings, stateDirectory: stateDirectory)
        do throws(HueStreamProblem) {
            let client: HueBridgeClient
            do { client = try HueBridgeClient(base: target.base, pinnedCertificate: target.pairing.certificateSHA256) } catch {
                throw .fatal(error.message)
            }
            return try target.area(using: client)
        } catch {
            throw LightShowError(error.description, exitStatus: .ioError)
        }
    }

    /// The output's bridge, resolved, with its pairing.
    private static func target(for settings: LightOutputSettings, stateDirectory: String?) throws(LightShowError) -> HueTarget {
        guard let stateDirectory else { throw LightShowError("no state directory to find the Hue pairing in", exitStatus: .config) }
        let stream: InternetAddress
        do { stream = try InternetAddress.resolve(host: settings.address, port: UInt16(clamping: settings.streamPort)) } catch {
            throw LightShowError("\(error)", exitStatus: .config)
        }
        return try HueTarget(settings: settings, stream: stream, store: HuePairingStore(stateDirectory: stateDirectory))
    }

    private static func check(_ target: HueTarget, settings: LightOutputSettings, path: String) -> [Problem] {
        do throws(HueStreamProblem) {
            let client: HueBridgeClient
            do { client = try HueBridgeClient(base: target.base, pinnedCertificate: target.pairing.certificateSHA256) } catch {
                throw .fatal(error.message)
            }
            let area = try target.area(using: client)
            let ids = Set(area.channels.map(\.id))
            return settings.channelBands.keys.sorted().filter { !ids.contains($0) }.map { id in
                let known = ids.sorted().map(String.init).joined(separator: ", ")
                return Problem(isError: true, keyPath: "\(path).channels.\(id)", message: "area \"\(area.name)\" has no channel \(id) (it has \(known.isEmpty ? "none" : known))")
            }
        } catch {
            switch error {
            case .unknownArea(let text): return [Problem(isError: true, keyPath: path + ".area", message: text)]
            case .unreachable(let text): return [Problem(isError: false, keyPath: path, message: "\(text); the area was not checked")]
            default: return [Problem(isError: true, keyPath: path, message: error.description)]
            }
        }
    }
}
