import LightShowSystem
#if canImport(Glibc)
import Glibc
#endif

/// Remembers that the help overlay has been shown once: an empty file under `$XDG_STATE_HOME/lightshow/`
/// (else `~/.local/state/lightshow/`).
public struct HelpMarker: Sendable {
    public let path: String?

    public init(environment: [String: String]) {
        let directory: String?
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            directory = state + "/lightshow"
        } else if let home = environment["HOME"], !home.isEmpty {
            directory = home + "/.local/state/lightshow"
        } else {
            directory = nil
        }
        path = directory.map { $0 + "/help-shown" }
    }

    public var wasShown: Bool {
        guard let path else { return true }
        return access(path, F_OK) == 0
    }

    /// Creates the marker (and its directories); failures only mean the help shows again next time.
    public func markShown() {
        guard let path else { return }
        try? Directory.makeAll(parentOf: path)
        _ = try? OwnedDescriptor.open(path, O_WRONLY | O_CREAT)
    }
}
