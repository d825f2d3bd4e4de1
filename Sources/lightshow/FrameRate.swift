import ArgumentParser
import LightShowCore

/// `--fps`, checked the same way by every command that takes it.
enum FrameRate {
    static let range: ClosedRange<Double> = 1...240

    /// Throws a usage error unless `value` is a finite rate in `range`.
    static func validate(_ value: Double) throws {
        guard value.isFinite, range.contains(value) else {
            throw ValidationError("--fps must be between 1 and 240, got \(value.compact)")
        }
    }
}
