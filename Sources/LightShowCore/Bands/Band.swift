/// One of the three frequency bands, each driving one circle light.
public enum Band: String, CaseIterable, Sendable, Hashable, Codable {
    case bass, mid, treble

    /// Human name for messages and the toolbar.
    public var displayName: String {
        switch self {
        case .bass: "Bass"
        case .mid: "Mid"
        case .treble: "Treble"
        }
    }
}
