@testable import LightShowSystem
import Testing

@Suite struct ResidentCodeTests {
    /// Resident kB of the executable file mappings, from /proc/self/smaps.
    private func residentCodeKB() throws -> Int {
        let smaps = try #require(try SmallFile(path: "/proc/self/smaps").read(limit: 8 << 20, followingSymlinks: true))
        var total = 0, inCode = false
        for line in String(decoding: smaps, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.first?.contains("-") == true, fields.count > 1 {
                inCode = fields[1] == "r-xp" && fields.count >= 6 && fields[5].hasPrefix("/")
            } else if inCode, fields.first == "Rss:", fields.count > 1, let kb = Int(fields[1]) {
                total += kb
            }
        }
        return total
    }

    /// The test runner has run megabytes of code; afterwards only the pages it runs again come back, one at a time.
    @Test func releasedCodeIsNoLongerResident() throws {
        let before = try residentCodeKB()
        ResidentCode.releaseCodePages()
        let after = try residentCodeKB()
        #expect(before > 2_000)
        #expect(after < before / 2, "resident code \(before) kB before, \(after) kB after")
    }
}
