#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One-pole attack/release smoother with time constants in milliseconds.
///
/// Frame-rate independent: each step is the exact solution of the continuous smoother over the real time step,
/// with the target held for that step (the analysis measures it once per hop), so the time constants mean the
/// same at 30 and 60 fps.
public struct Envelope: Equatable, Sendable {
    public var attackSeconds: Double
    public var releaseSeconds: Double
    public private(set) var value: Double

    public init(attackMilliseconds: Double, releaseMilliseconds: Double, initial: Double = 0) {
        attackSeconds = Swift.max(0, attackMilliseconds) / 1000
        releaseSeconds = Swift.max(0, releaseMilliseconds) / 1000
        value = initial
    }

    /// Moves toward `target` over `dt` seconds and returns the new value.
    @discardableResult
    public mutating func step(toward target: Double, dt: Double) -> Double {
        let tau = target > value ? attackSeconds : releaseSeconds
        guard tau > 0, dt > 0 else {
            value = target
            return value
        }
        value = target + (value - target) * exp(-dt / tau)
        return value
    }

    /// Where `step(toward: target, dt: seconds)` would take the value, without taking it there.
    public func ahead(by seconds: Double, toward target: Double) -> Double {
        var copy = self
        return copy.step(toward: target, dt: seconds)
    }

    public mutating func reset(to level: Double = 0) {
        value = level
    }
}
