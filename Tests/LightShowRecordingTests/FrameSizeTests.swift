import LightShowCore
import LightShowRecording
import Testing

@Suite struct FrameSizeTests {
    @Test func parsesEvenSizesUpTo8K() {
        #expect(FrameSize(parsing: "1280x720") == .hd720)
        #expect(FrameSize(parsing: "7680x4320") == .maximum)
        #expect(FrameSize(parsing: "2X2")?.description == "2x2")
    }

    @Test(arguments: ["0x720", "1280x0", "1281x720", "1280x721", "7682x4320", "7680x4322", "1280", "1280x", "x720", "axb", "-2x2", "+2x2", "1280x720x2", "", "1280 x 720"])
    func rejects(_ text: String) {
        #expect(FrameSize(parsing: text) == nil)
    }
}
