import CALSA
public import LightShowCore

/// What an ALSA PCM name stands for, read from ALSA's configuration without opening it. A PCM name is a program:
/// `file:'|cmd'` hands `cmd` to a shell, `file:/path` truncates the path, and a `lib` or `ladspa` entry loads a
/// library. Opening the name is what runs them, so the name is judged here, before anything opens it.
public struct ALSAPCMDefinition: Sendable, Equatable {
    /// Plugin types that write files or run programs (`file`), load code from a path (`ladspa`) or attach to
    /// another process's shared memory by a socket path (`shm`). A `lib` entry anywhere loads code too.
    public static let riskyTypes: Set<String> = ["file", "shm", "ladspa"]
    /// Deepest chain of slaves followed; ALSA's own definitions nest two or three.
    static let maximumDepth = 8

    /// The name as given.
    public var name: String
    /// Every plugin type in the name's chain, the name's own first (`["plug", "hw"]`); empty when ALSA's
    /// configuration doesn't define the name.
    public var types: [String]
    /// Why the name may write files, run programs or load code; nil when nothing in its chain does.
    public var risk: String?

    /// True when the configuration defines the name.
    public var isDefined: Bool { !types.isEmpty }

    /// Looks `name` up in ALSA's configuration (`pcm.NAME`, arguments and all), following its slaves.
    public static func inspect(_ name: String) -> ALSAPCMDefinition {
        var definition = ALSAPCMDefinition(name: name, types: [], risk: nil)
        // Braces or a newline make the name a configuration fragment of its own, which no list offers.
        if name.contains(where: { "{}\n\r\0".contains($0) }) {
            definition.risk = "it holds an ALSA configuration fragment"
            return definition
        }
        guard let top = lightshow_alsa_config_ref() else { return definition }
        defer { snd_config_unref(top) }
        definition.follow(name, top: top, depth: 0)
        return definition
    }

    private mutating func follow(_ pcm: String, top: OpaquePointer, depth: Int) {
        guard depth < Self.maximumDepth, risk == nil else { return }
        var node: OpaquePointer?
        guard snd_config_search_definition(top, "pcm", pcm, &node) >= 0, let node else { return }
        defer { snd_config_delete(node) }
        walk(node, top: top, depth: depth)
    }

    /// Every member of a definition: `type`s are noted, `lib` is a library to load, and a string slave (`pcm`,
    /// `slave`) is another name to follow; compound members are walked in turn (`slave { pcm { type hw } }`).
    private mutating func walk(_ node: OpaquePointer, top: OpaquePointer, depth: Int) {
        guard risk == nil else { return }
        var iterator = snd_config_iterator_first(node)
        let end = snd_config_iterator_end(node)
        var members = 0
        while iterator != end, risk == nil, members < 256 {
            members += 1
            guard let member = snd_config_iterator_entry(iterator) else { break }
            iterator = snd_config_iterator_next(iterator)
            let id = Self.id(of: member)
            switch snd_config_get_type(member) {
            case SND_CONFIG_TYPE_COMPOUND:
                walk(member, top: top, depth: depth + 1)
            case SND_CONFIG_TYPE_STRING:
                guard let value = Self.string(of: member) else { continue }
                switch id {
                case "type":
                    types.append(value)
                    if Self.riskyTypes.contains(value) { risk = "it uses ALSA's \(value) plugin" }
                case "lib", "library", "path":
                    risk = "it loads code or opens a path (\(id) \(SafeText.sanitized(value, limit: 80)))"
                case "pcm", "slave":
                    follow(value, top: top, depth: depth + 1)
                default:
                    break
                }
            default:
                break
            }
        }
    }

    private static func id(of node: OpaquePointer) -> String {
        var id: UnsafePointer<CChar>?
        guard snd_config_get_id(node, &id) >= 0, let id else { return "" }
        return String(cString: id)
    }

    private static func string(of node: OpaquePointer) -> String? {
        var value: UnsafePointer<CChar>?
        guard snd_config_get_string(node, &value) >= 0, let value else { return nil }
        return String(cString: value)
    }
}

extension ALSAPCMDefinition {
    /// For `config check` and the daemon's log: the configured input is the admin's to choose, but one whose
    /// definition writes files, runs programs or loads code deserves a second look. Nil for any other input.
    public static func warning(for input: InputSpec) -> String? {
        guard case .alsa(let device) = input, let risk = inspect(device).risk else { return nil }
        return "\(SafeText.sanitized(device, limit: 80)) may write files or run programs: \(risk); "
            + "name it only if you wrote its definition (clients can't choose such an input)"
    }
}
