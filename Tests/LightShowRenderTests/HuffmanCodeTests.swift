@testable import LightShowRender
import Testing

@Suite struct HuffmanCodeTests {
    /// Kraft sum of the code lengths, in units of 2^-limit: exactly 2^limit for a complete prefix code.
    private func kraft(_ code: HuffmanCode, limit: Int) -> Int {
        code.lengths.reduce(0) { $0 + ($1 > 0 ? 1 << (limit - Int($1)) : 0) }
    }

    /// Fibonacci counts would give a 30-deep tree: the limit holds and the code stays complete.
    @Test func skewedCountsRespectTheLimit() {
        var counts: [UInt32] = [1, 1]
        while counts.count < 30 { counts.append(counts[counts.count - 1] + counts[counts.count - 2]) }
        for limit in [7, 15] {
            let code = HuffmanCode(counts: counts, limit: limit)
            #expect(code.lengths.allSatisfy { $0 >= 1 && Int($0) <= limit })
            #expect(kraft(code, limit: limit) == 1 << limit)
        }
    }

    /// A lone symbol gets a partner, so the code is complete (zlib rejects other incomplete codes).
    @Test func fewSymbolsStillMakeACompleteCode() {
        for counts in [[0, 0, 5, 0], [0, 0, 0, 0], [3, 0, 0, 9]] as [[UInt32]] {
            let code = HuffmanCode(counts: counts, limit: 15)
            #expect(kraft(code, limit: 15) == 1 << 15, "\(counts)")
            #expect(counts.indices.allSatisfy { counts[$0] == 0 || code.lengths[$0] > 0 })
        }
    }

    /// Frequent symbols get codes no longer than rare ones; codes are canonical and prefix-free.
    @Test func codesAreCanonicalAndPrefixFree() {
        let counts: [UInt32] = [40, 3, 0, 12, 12, 1, 7, 0, 25]
        let code = HuffmanCode(counts: counts, limit: 15)
        let used = counts.indices.filter { code.lengths[$0] > 0 }
        for a in used {
            for b in used where counts[a] > counts[b] { #expect(code.lengths[a] <= code.lengths[b]) }
            for b in used where a != b && code.lengths[a] <= code.lengths[b] {
                // The codes are stored bit-reversed: a prefix of b is a's low bits.
                let mask = UInt32(1) << UInt32(code.lengths[a]) - 1
                #expect(code.codes[b] & mask != code.codes[a], "\(a) is a prefix of \(b)")
            }
        }
    }
}
