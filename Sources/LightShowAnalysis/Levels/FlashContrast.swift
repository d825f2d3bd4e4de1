public import LightShowCore

/// Whether a light's lift is a flash as WCAG 2.3.1 defines one: a change in relative luminance of a tenth of
/// full or more, where the darker state is below 0.8. The light is its band's colour at the level as alpha,
/// composited over the background, so a dim colour can rise further than a bright one before it flashes.
/// The background is a gradient; the light is judged over both of its ends and its middle, and the largest
/// change counts.
public struct FlashContrast: Equatable, Sendable {
    /// WCAG's general flash: opposing changes of 10% of the maximum relative luminance…
    public static let flashChange = 0.1
    /// …counted only while the darker state is below this luminance.
    public static let darkerCeiling = 0.8

    public let color: RGBColor
    /// The background colours the light is judged over.
    public let backgrounds: [RGBColor]

    public init(color: RGBColor, backgrounds: [RGBColor]) {
        self.color = color
        self.backgrounds = backgrounds.isEmpty ? [.black] : backgrounds
    }

    /// `color` over the `[background]` gradient: its two ends and the colour halfway.
    public init(color: RGBColor, background: BackgroundSettings) {
        self.init(
            color: color, backgrounds: [background.from, background.from.mixed(with: background.to, fraction: 0.5), background.to]
        )
    }

    /// Each band's light (in `Band.allCases` order) over the background.
    public static func perBand(_ bands: BandsSettings, background: BackgroundSettings) -> [FlashContrast] {
        Band.allCases.map { FlashContrast(color: bands[$0].color, background: background) }
    }

    /// The relative luminance of the light at `alpha` over `background`, unrounded.
    public func luminance(alpha: Double, over background: RGBColor) -> Double {
        let a = min(1, max(0, alpha))
        func channel(_ back: UInt8, _ light: UInt8) -> Double { Double(back) + (Double(light) - Double(back)) * a }
        return RGBColor.relativeLuminance(
            red: channel(background.red, color.red), green: channel(background.green, color.green),
            blue: channel(background.blue, color.blue)
        )
    }

    /// The largest change in relative luminance, over the backgrounds, between the light at alpha `from` and at
    /// `to` that counts toward a flash: 0 where the darker state is at or above `darkerCeiling`.
    public func flashingChange(from: Double, to: Double) -> Double {
        var largest = 0.0
        for background in backgrounds {
            let before = luminance(alpha: from, over: background), after = luminance(alpha: to, over: background)
            guard min(before, after) < Self.darkerCeiling else { continue }
            largest = max(largest, abs(after - before))
        }
        return largest
    }

    /// Whether going from alpha `from` to `to` (and back) is a full-contrast flash.
    public func isFlash(from: Double, to: Double) -> Bool {
        flashingChange(from: from, to: to) >= Self.flashChange
    }

    /// The largest lift from alpha `base`, at most `limit`, that is not a flash (found to within 1/4096 of full).
    public func largestLowContrastLift(from base: Double, upTo limit: Double) -> Double {
        let ceiling = max(0, min(limit, 1 - base))
        if !isFlash(from: base, to: base + ceiling) { return ceiling }
        var low = 0.0, high = ceiling
        for _ in 0..<12 {
            let middle = (low + high) / 2
            if isFlash(from: base, to: base + middle) { high = middle } else { low = middle }
        }
        return low
    }
}
