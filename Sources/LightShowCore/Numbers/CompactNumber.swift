extension Double {
    /// `30000` rather than `30000.0` in messages; fractions, huge values and NaN as Swift prints them.
    public var compact: String {
        if self == rounded(), abs(self) < 1e15 { return String(Int64(self)) }
        return String(self)
    }
}
