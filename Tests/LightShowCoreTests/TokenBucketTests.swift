import LightShowCore
import Testing

@Suite struct TokenBucketTests {
    static let ms: UInt64 = 1_000_000

    /// A burst goes at once, then turns come at the rate; a turn spent while none was left is owed.
    @Test func aBurstThenTheRate() {
        var bucket = TokenBucket(perSecond: 10, burst: 4)
        let start = 1_000 * Self.ms
        for _ in 0..<4 { #expect(bucket.take(at: start) == nil) }
        #expect(bucket.take(at: start) == start + 100 * Self.ms)
        #expect(bucket.take(at: start + 100 * Self.ms) == nil)
        bucket.spend(at: start + 100 * Self.ms)
        #expect(bucket.take(at: start + 150 * Self.ms) == start + 200 * Self.ms)
        // A quiet second refills the burst, and no more.
        for _ in 0..<4 { #expect(bucket.take(at: start + 2_000 * Self.ms) == nil) }
        #expect(bucket.take(at: start + 2_000 * Self.ms) != nil)
    }
}
