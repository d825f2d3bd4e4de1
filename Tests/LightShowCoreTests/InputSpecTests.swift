import LightShowCore
import Testing

@Suite struct InputSpecTests {
    @Test(arguments: [
        ("alsa:hw:1,0", InputSpec.alsa(device: "hw:1,0")),
        ("alsa:plughw:CARD=USB,DEV=0", .alsa(device: "plughw:CARD=USB,DEV=0")),
        ("file:/tmp/a.wav", .file(path: "/tmp/a.wav")),
        ("song.flac", .file(path: "song.flac")),
        ("fifo:/tmp/mpd.fifo", .fifo(path: "/tmp/mpd.fifo")),
        ("pulse", .pulse(source: nil)), ("pulse:speakers.monitor", .pulse(source: "speakers.monitor")),
        // The ALSA plugin named pulse stays an ALSA device.
        ("alsa:pulse", .alsa(device: "pulse")),
        ("-", .stdin), ("stdin", .stdin), ("demo", .demo),
    ])
    func parses(text: String, expected: InputSpec) {
        #expect(InputSpec(parsing: text) == expected)
    }

    @Test func rejectsEmptyDevice() {
        #expect(InputSpec(parsing: "alsa:") == nil)
        #expect(InputSpec(parsing: "pulse:") == nil)
        #expect(InputSpec(parsing: "") == nil)
    }

    @Test func pulseRoundTripsThroughItsDescription() {
        for spec in [InputSpec.pulse(source: nil), .pulse(source: "mic")] {
            #expect(InputSpec(parsing: spec.description) == spec)
        }
    }

    @Test func pcmFormatParsing() {
        #expect(PCMFormat(parsing: "44100:16:2") == .mpdDefault)
        #expect(PCMFormat(parsing: "48000:32f:1")?.encoding == .float32)
        #expect(PCMFormat(parsing: "48000:12:2") == nil)
        #expect(PCMFormat(parsing: "0:16:2") == nil)
        #expect(PCMFormat(parsing: "44100:16") == nil)
    }
}
