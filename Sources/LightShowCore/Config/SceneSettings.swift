/// `[scene]`: proportions of the layout.
public struct SceneSettings: Equatable, Sendable {
    /// Gap around and between the lights, as a fraction of the shorter canvas side.
    public var margin: Double = 0.04
    /// Toolbar height as a fraction of the canvas height (collapsed to 0 while stopped).
    public var toolbarHeight: Double = 0.08

    public init() {}
}
