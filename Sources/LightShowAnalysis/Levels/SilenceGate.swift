/// Decides whether there is sound: RMS at or above a dBFS threshold opens the gate at once;
/// it closes only after the RMS has stayed below the threshold for the hold time.
/// A threshold rather than an exact-zero test, so dither and hiss don't keep the lights awake.
public struct SilenceGate: Equatable, Sendable {
    public var thresholdDBFS: Double
    public var holdSeconds: Double
    public private(set) var isOpen: Bool
    /// Seconds spent below the threshold while open.
    private var quietFor: Double = 0

    public init(thresholdDBFS: Double, holdMilliseconds: Double, startsOpen: Bool = false) {
        self.thresholdDBFS = thresholdDBFS
        holdSeconds = Swift.max(0, holdMilliseconds) / 1000
        isOpen = startsOpen
    }

    /// Feeds the RMS (dBFS) of the newest `dt` seconds and returns whether the gate is open.
    @discardableResult
    public mutating func update(rmsDBFS: Double, dt: Double) -> Bool {
        if rmsDBFS >= thresholdDBFS {
            isOpen = true
            quietFor = 0
        } else if isOpen {
            quietFor += Swift.max(0, dt)
            // A nanosecond of slack so a hold that is a whole number of hops isn't missed by rounding.
            if quietFor >= holdSeconds - 1e-9 { isOpen = false }
        }
        return isOpen
    }
}
