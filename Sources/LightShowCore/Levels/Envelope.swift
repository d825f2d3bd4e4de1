#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One-pole attack/release smoother with time constants in milliseconds.
///
/// Frame-rate independent: the coefficients come from the real time step, and the target is taken to move in a
/// straight line from the previous hop's value to this one's (first-order hold), which is the exact solution of
/// the continuous smoother for that input. So 30 and 60 fps trace the same curve, not two staircases.
public struct Envelope: Equatable, Sendable {
    public var attackSeconds: Double
    public var releaseSeconds: Double
    public private(set) var value: Double
    /// The target at the previous step, where this step's straight line starts.
    private var previousTarget: Double

    public init(attackMilliseconds: Double, releaseMilliseconds: Double, initial: Double = 0) {
        attackSeconds = Swift.max(0, attackMilliseconds) / 1000
        releaseSeconds = Swift.max(0, releaseMilliseconds) / 1000
        value = initial
        previousTarget = initial
    }

    /// Moves toward `target` over `dt` seconds and returns the new value.
    @discardableResult
    public mutating func step(toward target: Double, dt: Double) -> Double {
        defer { previousTarget = target }
        let tau = target > value ? attackSeconds : releaseSeconds
        guard tau > 0, dt > 0 else {
            value = target
            return value
        }
        value = target + (value - target) * exp(-dt / tau)
        return value
    }

    public mutating func reset(to level: Double = 0) {
        value = level
        previousTarget = level
    }
}
