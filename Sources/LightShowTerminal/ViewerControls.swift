public import LightShowCore
public import LightShowRender

/// What the keys do, as a pure state: the help walk, the tuning panel and the commands for the feed.
public struct ViewerControls: Equatable, Sendable {
    public enum Effect: Equatable, Sendable {
        case none
        case command(UserCommand)
        case bandsChanged(BandsSettings)
        case quit
    }

    public var help = HelpOverlay()
    /// The tuning state; kept when the panel closes so the ranges stay as tuned.
    public var tuning: BandTuning
    public var isTuning = false
    /// True once a knob moved: the tuned ranges are printed as TOML on quit.
    public private(set) var hasTuned = false

    public init(bands: BandsSettings, showHelp: Bool = false) {
        tuning = BandTuning(bands: bands)
        help = HelpOverlay(open: showHelp)
    }

    public var overlays: TerminalOverlays {
        TerminalOverlays(help: help.step, tuning: isTuning ? tuning : nil, bands: tuning.bands)
    }

    public mutating func handle(_ key: Key) -> Effect {
        if key == .interrupt { return .quit }
        if help.isOpen {
            if key == .escape { help.close() } else { help.advance() }
            return .none
        }
        if isTuning {
            switch key {
            case .character("1"): tuning.selected = .bass; return .none
            case .character("2"): tuning.selected = .mid; return .none
            case .character("3"): tuning.selected = .treble; return .none
            case .left, .right:
                guard tuning.moveActiveKnob(by: key == .left ? -1 : 1) else { return .none }
                hasTuned = true
                return .bandsChanged(tuning.bands)
            case .tab:
                tuning.switchKnob()
                return .none
            case .escape, .character("t"):
                isTuning = false
                return .none
            default:
                break
            }
        }
        switch key {
        case .character(" "): return .command(.toggle)
        case .character("p"): return .command(.play)
        case .character("s"): return .command(.stop)
        case .character("q"), .character("Q"): return .quit
        case .character("?"), .character("h"): help.open(); return .none
        case .character("t"): isTuning = true; return .none
        default: return .none
        }
    }
}
