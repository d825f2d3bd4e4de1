/// `[background]`: the linear gradient behind the lights.
public struct BackgroundSettings: Equatable, Sendable {
    public var from = RGBColor(red: 0x10, green: 0x10, blue: 0x20)
    public var to = RGBColor(red: 0x30, green: 0x20, blue: 0x50)
    /// Degrees counter-clockwise from east; 270 runs top to bottom.
    public var angle: Double = 270

    /// What the config (and a daemon's scene event) may set.
    public static let angleRange: ClosedRange<Double> = -360...360

    public init() {}
}
