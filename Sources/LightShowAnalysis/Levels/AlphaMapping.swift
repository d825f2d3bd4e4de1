/// Maps a level in dB onto 0…1: the ceiling gives 1, `dynamicRange` dB below it gives 0, linear in dB between.
public struct AlphaMapping: Equatable, Sendable {
    public var dynamicRangeDB: Double

    public init(dynamicRangeDB: Double) {
        // A range of zero would divide by zero; one tenth of a dB is already a hard switch.
        self.dynamicRangeDB = Swift.max(0.1, dynamicRangeDB)
    }

    public func alpha(levelDB: Double, ceilingDB: Double) -> Double {
        let value = (levelDB - (ceilingDB - dynamicRangeDB)) / dynamicRangeDB
        return Swift.min(1, Swift.max(0, value))
    }
}
