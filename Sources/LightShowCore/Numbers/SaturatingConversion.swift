/// `Int(someDouble)` traps on NaN, infinity and values out of range, and outside data can be any of those.
/// These conversions never trap: NaN becomes 0 and everything else is clamped to the type's range.
extension Int64 {
    public init(saturating value: Double) {
        if value.isNaN {
            self = 0
        } else if value >= 9_223_372_036_854_775_807.0 {
            self = .max
        } else if value <= -9_223_372_036_854_775_808.0 {
            self = .min
        } else {
            self = Int64(value)
        }
    }
}

extension Int {
    public init(saturating value: Double) {
        self = Int(Int64(saturating: value))
    }
}
