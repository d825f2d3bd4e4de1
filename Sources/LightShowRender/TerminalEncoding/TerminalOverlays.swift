public import LightShowCore

/// What the viewer shows on top of the scene.
public struct TerminalOverlays: Equatable, Sendable {
    /// The help balloon's step, nil when help is closed.
    public var help: HelpOverlay.Step?
    /// The band-tuning panel, nil when closed.
    public var tuning: BandTuning?
    /// Band ranges and colours as currently tuned (for the help text).
    public var bands: BandsSettings

    public init(help: HelpOverlay.Step? = nil, tuning: BandTuning? = nil, bands: BandsSettings = BandsSettings()) {
        self.help = help
        self.tuning = tuning
        self.bands = bands
    }
}

/// Colours of the viewer's own text.
enum TerminalInk {
    static let text = RGBColor.white
    static let panel = RGBColor(red: 0x1C, green: 0x1C, blue: 0x26)
    static let balloon = RGBColor(red: 0x2C, green: 0x2C, blue: 0x3A)
    static let axis = RGBColor(red: 0x70, green: 0x70, blue: 0x80)
    /// How much the toolbar strip darkens the background (as the PNG toolbar does).
    static let stripAlpha = 0.35
    /// Brightness left to what the help overlay dims.
    static let dimFactor = 0.3
}
