public import LightShowAudio

/// The capture's counters over the daemon's whole run: each opened input counts from zero, so those of the inputs
/// already closed are carried over (a counter must only reset when the process does).
public struct CaptureTotals: Sendable, Equatable {
    public var overruns = 0
    public var recoveries = 0
    public var losses = 0
    public var reopens = 0

    public init() {}

    public init(_ statistics: CaptureStatistics) {
        overruns = statistics.overruns
        recoveries = statistics.recoveries
        losses = statistics.losses
        reopens = statistics.reopens
    }

    public static func + (lhs: CaptureTotals, rhs: CaptureTotals) -> CaptureTotals {
        var sum = lhs
        sum.overruns &+= rhs.overruns
        sum.recoveries &+= rhs.recoveries
        sum.losses &+= rhs.losses
        sum.reopens &+= rhs.reopens
        return sum
    }
}
