/// `[scene]`: proportions of the layout, and the master brightness.
public struct SceneSettings: Equatable, Sendable {
    /// Gap around and between the lights, as a fraction of the shorter canvas side.
    public var margin: Double = 0.04
    /// Toolbar height as a fraction of the canvas height (collapsed to 0 while stopped).
    public var toolbarHeight: Double = 0.08
    /// Master brightness, 0…1: scales every colour the show paints (see MasterBrightness.swift).
    public var brightness: Double = 1

    /// What the config (and a daemon's scene event) may set.
    public static let marginRange: ClosedRange<Double> = 0...0.25
    public static let toolbarHeightRange: ClosedRange<Double> = 0...0.5
    public static let brightnessRange: ClosedRange<Double> = 0...1

    public init() {}
}
