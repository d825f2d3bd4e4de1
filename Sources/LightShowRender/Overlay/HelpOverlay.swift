public import LightShowCore

/// The help overlay's walk: one balloon per light, then one for the toolbar, then closed.
/// Any key moves on; Esc closes at once.
public struct HelpOverlay: Equatable, Sendable {
    public enum Step: Equatable, Sendable {
        case light(Band)
        case toolbar
    }

    /// Nil while the overlay is closed.
    public private(set) var step: Step?

    public init(open: Bool = false) {
        step = open ? .light(Band.allCases[0]) : nil
    }

    public var isOpen: Bool { step != nil }

    public mutating func open() { step = .light(Band.allCases[0]) }

    public mutating func close() { step = nil }

    /// Bass → mid → treble → toolbar → closed.
    public mutating func advance() {
        switch step {
        case .light(let band):
            let all = Band.allCases
            if let index = all.firstIndex(of: band), index + 1 < all.count {
                step = .light(all[index + 1])
            } else {
                step = .toolbar
            }
        case .toolbar, nil:
            step = nil
        }
    }

    /// The balloon text of a step, with the band's current range.
    public static func text(for step: Step, bands: BandsSettings) -> String {
        switch step {
        case .light(let band):
            let range = bands[band].range
            let hertz = "\(BandTuning.formatHertz(range.lower))–\(BandTuning.formatHertz(range.upper)) Hz"
            return "\(band.displayName) · \(hertz) · \(description(of: band))"
        case .toolbar:
            return "▶ playing / ⏸ paused · title · elapsed — space play/pause · s stop · t tune bands · q quit"
        }
    }

    private static func description(of band: Band) -> String {
        switch band {
        case .bass: "follows the kick and the bass line"
        case .mid: "follows chords and voices"
        case .treble: "follows hats and cymbals"
        }
    }
}
