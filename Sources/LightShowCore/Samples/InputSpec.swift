/// Where audio comes from, as written after `--input` or in `[input] source`.
public enum InputSpec: Equatable, Sendable, Hashable, CustomStringConvertible {
    case alsa(device: String)
    /// PulseAudio or pipewire-pulse: nil records the monitor of the default sink (what plays) and follows it;
    /// a name records that source (a `….monitor` or a microphone).
    case pulse(source: String?)
    case file(path: String)
    case fifo(path: String)
    case stdin
    case demo

    public static let expectedSyntax = "pulse, pulse:SOURCE, alsa:DEVICE, file:PATH, fifo:PATH, stdin (or -), demo, or a path to an audio file"

    /// Parses a SPEC. A bare string that matches no scheme is a file path. Nil only for an empty or scheme-only spec.
    public init?(parsing text: String) {
        func rest(after prefix: String) -> String? {
            guard text.hasPrefix(prefix) else { return nil }
            let value = String(text.dropFirst(prefix.count))
            return value
        }
        if text.isEmpty { return nil }
        if text == "-" || text == "stdin" { self = .stdin; return }
        if text == "demo" { self = .demo; return }
        if text == "pulse" { self = .pulse(source: nil); return }
        if let source = rest(after: "pulse:") {
            guard !source.isEmpty else { return nil }
            self = .pulse(source: source)
            return
        }
        if let device = rest(after: "alsa:") {
            guard !device.isEmpty else { return nil }
            self = .alsa(device: device)
            return
        }
        if let path = rest(after: "file:") {
            guard !path.isEmpty else { return nil }
            self = .file(path: path)
            return
        }
        if let path = rest(after: "fifo:") {
            guard !path.isEmpty else { return nil }
            self = .fifo(path: path)
            return
        }
        self = .file(path: text)
    }

    /// The spec as `--input` takes it, names as given (for comparing with a list of offered names, never for showing).
    public var spelling: String {
        switch self {
        case .alsa(let device): "alsa:\(device)"
        case .pulse(nil): "pulse"
        case .pulse(let source?): "pulse:\(source)"
        case .file(let path): "file:\(path)"
        case .fifo(let path): "fifo:\(path)"
        case .stdin: "stdin"
        case .demo: "demo"
        }
    }

    /// For messages, `STATUS=` and `status`: a path or device name from outside is shown without control characters.
    public var description: String {
        switch self {
        case .alsa(let device): "alsa:\(SafeText.sanitized(device))"
        case .pulse(nil): "pulse"
        case .pulse(let source?): "pulse:\(SafeText.sanitized(source))"
        case .file(let path): "file:\(SafeText.sanitized(path))"
        case .fifo(let path): "fifo:\(SafeText.sanitized(path))"
        case .stdin: "stdin"
        case .demo: "demo"
        }
    }

    /// True for inputs that arrive in real time (live capture, pipes, the demo).
    public var isLive: Bool {
        if case .file = self { return false }
        return true
    }

    /// The title shown when nothing better (MPD) is known.
    public var defaultTitle: String {
        switch self {
        case .alsa(let device): SafeText.sanitized(device)
        case .pulse(nil): "Desktop audio"
        case .pulse(let source?): SafeText.sanitized(source)
        case .file(let path): SafeText.sanitized(path.split(separator: "/").last.map(String.init) ?? path)
        case .fifo(let path): SafeText.sanitized(path.split(separator: "/").last.map(String.init) ?? path)
        case .stdin: "stdin"
        case .demo: "Demo"
        }
    }
}
