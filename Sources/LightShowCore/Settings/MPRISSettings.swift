/// `[mpris]`: which desktop player to follow over MPRIS.
public struct MPRISSettings: Equatable, Sendable {
    /// "" = the one that plays (else the latest active); a name such as `vlc` or `spotify` follows only that one.
    public var player: String = ""

    public init() {}
}
