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
            guard let stateDirectory else {
                problems.append(Problem(isError: true, keyPath: path, message: "no state directory to find the pairing in"))
                continue
            }
            let stream: InternetAddress
            do { stream = try InternetAddress.resolve(host: settings.address, port: UInt16(clamping: settings.streamPort)) } catch {
                problems.append(Problem(isError: true, keyPath: path + ".address", message: "\(error)"))
                continue
            }
            let target: HueTarget
            do { target = try HueTarget(settings: settings, stream: stream, store: HuePairingStore(stateDirectory: stateDirectory)) } catch {
                problems.append(Problem(isError: true, keyPath: path, message: error.message))
                continue
            }
            problems += check(target, settings: settings, path: path)
        }
        return problems
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
