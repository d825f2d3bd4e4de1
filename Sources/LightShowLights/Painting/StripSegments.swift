public import LightShowCore

/// A strip of `pixels` split into three segments in band order (bass, mid, treble); the first segments take
/// the remainder, so 100 pixels are 34 + 33 + 33.
public struct StripSegments: Equatable, Sendable {
    public let ranges: [Range<Int>]

    public init(pixels: Int) {
        let count = max(0, pixels)
        var ranges: [Range<Int>] = []
        var start = 0
        for index in 0..<3 {
            let length = count / 3 + (index < count % 3 ? 1 : 0)
            ranges.append(start..<start + length)
            start += length
        }
        self.ranges = ranges
    }

    public func range(of band: Band) -> Range<Int> {
        ranges[Band.allCases.firstIndex(of: band) ?? 0]
    }
}
