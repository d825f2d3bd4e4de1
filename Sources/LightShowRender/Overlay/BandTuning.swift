#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
public import LightShowCore

/// The band-tuning panel's model: which band and which knob are selected, and the ranges being tuned.
/// Knobs move along the third-octave series (ISO 266: 20, 25, 31.5, 40 … 16k, 20k Hz) and clamp as a
/// `FrequencyRange` does, keeping at least `minimumRatio` between the knobs so a band never becomes empty.
public struct BandTuning: Equatable, Sendable {
    public enum Knob: Sendable, Equatable {
        case lower, upper

        public var other: Knob { self == .lower ? .upper : .lower }
    }

    /// The narrowest band: one third-octave step (10^0.1 ≈ 2^(1/3)), with a little slack for the rounded series.
    public static let minimumRatio = 1.25

    public private(set) var bands: BandsSettings
    public var selected: Band = .bass
    public var activeKnob: Knob = .lower

    public init(bands: BandsSettings) {
        self.bands = bands
    }

    public var selectedRange: FrequencyRange { bands[selected].range }

    /// Takes ranges set elsewhere (a daemon's, after another viewer tuned it or a reload), keeping the selection.
    public mutating func adopt(_ bands: BandsSettings) {
        self.bands = bands
    }

    public mutating func switchKnob() {
        activeKnob = activeKnob.other
    }

    /// Moves the active knob `steps` third-octaves (negative = down). Returns whether the range changed.
    @discardableResult
    public mutating func moveActiveKnob(by steps: Int) -> Bool {
        var range = bands[selected].range
        let before = range
        let current = activeKnob == .lower ? range.lower : range.upper
        let target = Self.snapped(Self.seriesIndex(of: current) + steps, from: current, direction: steps.signum())
        // The axis clamps as FrequencyRange does; a step that would leave less than the minimum width is refused,
        // so the knobs stay on series points.
        switch activeKnob {
        case .lower:
            let ceiling = range.upper / Self.minimumRatio
            if target <= ceiling || target < current { range.setLower(Swift.max(target, range.minimum)) }
        case .upper:
            let floor = range.lower * Self.minimumRatio
            if target >= floor || target > current { range.setUpper(Swift.min(target, range.maximum)) }
        }
        bands[selected].range = range
        return range != before
    }

    /// The ranges as `[bands.*]` TOML, for pasting into the config file.
    public var tomlSnippet: String {
        var lines: [String] = []
        for band in Band.allCases {
            let range = bands[band].range
            if !lines.isEmpty { lines.append("") }
            lines.append("[bands.\(band.rawValue)]")
            lines.append("lower = \(Self.formatHertz(range.lower))")
            lines.append("upper = \(Self.formatHertz(range.upper))")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `25`, `31.5`, `1250`: whole hertz from 100 Hz up, one decimal below.
    public static func formatHertz(_ value: Double) -> String {
        let rounded = value >= 100 ? value.rounded() : (value * 10).rounded() / 10
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int64(rounded)) }
        return String(rounded)
    }

    /// `250 Hz`, `4k`, `12.5k` for axis labels and the panel.
    public static func shortHertz(_ value: Double) -> String {
        guard value >= 1000 else { return formatHertz(value) + " Hz" }
        let kilo = (value / 100).rounded() / 10
        return (kilo == kilo.rounded() ? String(Int(kilo)) : String(kilo)) + "k"
    }

    /// Index n of the nearest series point: n = round(10·log10 f).
    static func seriesIndex(of frequency: Double) -> Int {
        Int((10 * log10(Swift.max(frequency, 1e-9))).rounded())
    }

    /// The series point n steps along; a value between points moves to the next point in the direction of travel.
    static func snapped(_ index: Int, from current: Double, direction: Int) -> Double {
        var n = index
        var value = frequency(ofIndex: n)
        while direction != 0 && (direction > 0 ? value <= current : value >= current) {
            n += direction > 0 ? 1 : -1
            value = frequency(ofIndex: n)
        }
        return value
    }

    /// The ISO 266 third-octave nominal frequencies: 20, 25, 31.5, 40 … 16000, 20000.
    static func frequency(ofIndex n: Int) -> Double {
        let mantissas: [Double] = [1, 1.25, 1.6, 2, 2.5, 3.15, 4, 5, 6.3, 8]
        let decade = n >= 0 ? n / 10 : (n - 9) / 10
        var scale = 1.0
        if decade >= 0 { for _ in 0..<decade { scale *= 10 } } else { for _ in 0..<(-decade) { scale /= 10 } }
        return (mantissas[n - decade * 10] * scale * 100).rounded() / 100
    }
}

extension BandTuning {
    /// Where `frequency` sits on the log axis, 0 at the axis minimum and 1 at its maximum (clamped).
    public static func axisFraction(of frequency: Double, range: FrequencyRange = .defaultBass) -> Double {
        let low = log10(range.minimum), high = log10(range.maximum)
        guard frequency > 0, high > low else { return 0 }
        return min(1, max(0, (log10(frequency) - low) / (high - low)))
    }

    /// The frequency at `fraction` (0…1) of the log axis.
    public static func frequency(atAxisFraction fraction: Double, range: FrequencyRange = .defaultBass) -> Double {
        let low = log10(range.minimum), high = log10(range.maximum)
        return pow(10, low + (high - low) * min(1, max(0, fraction)))
    }
}
