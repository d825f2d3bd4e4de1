extension RGBColor {
    /// The linear mix `self·(1−fraction) + other·fraction`, each channel rounded to nearest.
    public func mixed(with other: RGBColor, fraction: Double) -> RGBColor {
        let f = min(1, max(0, fraction))
        func channel(_ a: UInt8, _ b: UInt8) -> UInt8 {
            UInt8((Double(a) + (Double(b) - Double(a)) * f).rounded())
        }
        return RGBColor(red: channel(red, other.red), green: channel(green, other.green), blue: channel(blue, other.blue))
    }

    /// This colour at `alpha` (0…1) composited over an opaque `background` ("source over").
    public func composited(over background: RGBColor, alpha: Double) -> RGBColor {
        background.mixed(with: self, fraction: alpha)
    }
}
