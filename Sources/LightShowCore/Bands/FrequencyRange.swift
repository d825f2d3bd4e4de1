/// A band's range on a frequency axis, with the semantics of a range slider:
/// `minimum ≤ lower ≤ upper ≤ maximum` always holds, because every setter clamps.
public struct FrequencyRange: Equatable, Sendable, Hashable {
    /// The whole axis all bands live on.
    public static let axisMinimum: Double = 20
    public static let axisMaximum: Double = 20_000

    public let minimum: Double
    public let maximum: Double
    public private(set) var lower: Double
    public private(set) var upper: Double

    /// Builds a range, clamping `lower`/`upper` onto `minimum...maximum` and ordering them.
    public init(
        lower: Double,
        upper: Double,
        minimum: Double = FrequencyRange.axisMinimum,
        maximum: Double = FrequencyRange.axisMaximum
    ) {
        precondition(minimum < maximum, "axis must not be empty")
        self.minimum = minimum
        self.maximum = maximum
        let lo = Self.clamp(lower, minimum, maximum)
        let hi = Self.clamp(upper, minimum, maximum)
        self.lower = Swift.min(lo, hi)
        self.upper = Swift.max(lo, hi)
    }

    /// Moves the lower knob; it cannot pass the upper one.
    public mutating func setLower(_ value: Double) {
        lower = Self.clamp(value, minimum, upper)
    }

    /// Moves the upper knob; it cannot pass the lower one.
    public mutating func setUpper(_ value: Double) {
        upper = Self.clamp(value, lower, maximum)
    }

    public func contains(_ frequency: Double) -> Bool {
        frequency >= lower && frequency <= upper
    }

    static func clamp(_ value: Double, _ low: Double, _ high: Double) -> Double {
        guard value.isFinite else { return low }
        return Swift.min(Swift.max(value, low), high)
    }
}

extension FrequencyRange {
    public static let defaultBass = FrequencyRange(lower: 20, upper: 250)
    public static let defaultMid = FrequencyRange(lower: 250, upper: 4000)
    public static let defaultTreble = FrequencyRange(lower: 4000, upper: 16000)

    public static func defaultRange(for band: Band) -> FrequencyRange {
        switch band {
        case .bass: defaultBass
        case .mid: defaultMid
        case .treble: defaultTreble
        }
    }
}
