import LightShowRender
import Testing

@Suite struct TerminfoEntryTests {
    /// A compiled entry: header, names, `booleans` (0 or 1 each), and nothing after.
    private func entry(magic: Int = 0o432, names: String = "test|a test terminal", booleans: [UInt8]) -> [UInt8] {
        let nameBytes = Array(names.utf8) + [0]
        let header = [magic, nameBytes.count, booleans.count, 0, 0, 0]
        return header.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] } + nameBytes + booleans
    }

    @Test func backColourEraseIsTheTwentyNinthBoolean() {
        var booleans = [UInt8](repeating: 0, count: 29)
        #expect(TerminfoEntry(bytes: entry(booleans: booleans))?.backColorErase == false)
        booleans[28] = 1
        #expect(TerminfoEntry(bytes: entry(booleans: booleans))?.backColorErase == true)
        #expect(TerminfoEntry(bytes: entry(magic: 0o1036, booleans: booleans))?.backColorErase == true)
    }

    /// An entry with fewer booleans doesn't have the capability.
    @Test func aShortBooleanSectionLacksIt() {
        #expect(TerminfoEntry(bytes: entry(booleans: [1, 1, 1]))?.backColorErase == false)
    }

    @Test func malformedEntriesAreNone() {
        let good = entry(booleans: [UInt8](repeating: 1, count: 29))
        #expect(TerminfoEntry(bytes: []) == nil)
        #expect(TerminfoEntry(bytes: Array(good.prefix(11))) == nil)
        #expect(TerminfoEntry(bytes: entry(magic: 0o433, booleans: [1])) == nil)
        // The boolean section runs past the end.
        #expect(TerminfoEntry(bytes: Array(good.dropLast())) == nil)
        #expect(TerminfoEntry(bytes: [0x1A, 0x01, 0xFF, 0xFF, 0xFF, 0xFF] + [UInt8](repeating: 0, count: 6)) == nil)
    }
}
