/// The master brightness (`[scene] brightness`, Home Assistant's light brightness): every colour the show paints,
/// the lights and the background, scaled by one factor before any output sees it, so the screen, the viewers and
/// the network lights dim together.
extension RGBColor {
    /// Each channel times `factor` (0…1; anything else is clamped, NaN is 0).
    public func scaled(by factor: Double) -> RGBColor {
        let factor = factor.isNaN ? 0 : min(1, max(0, factor))
        func channel(_ value: UInt8) -> UInt8 { UInt8((Double(value) * factor).rounded()) }
        return RGBColor(red: channel(red), green: channel(green), blue: channel(blue))
    }
}

extension BandsSettings {
    /// These bands with their colours scaled by `brightness`.
    public func dimmed(by brightness: Double) -> BandsSettings {
        guard brightness != 1 else { return self }
        var copy = self
        for band in Band.allCases { copy[band].color = self[band].color.scaled(by: brightness) }
        return copy
    }
}

extension BackgroundSettings {
    /// This gradient with both ends scaled by `brightness`.
    public func dimmed(by brightness: Double) -> BackgroundSettings {
        guard brightness != 1 else { return self }
        var copy = self
        copy.from = from.scaled(by: brightness)
        copy.to = to.scaled(by: brightness)
        return copy
    }
}
