import LightShowCore
import Testing
@testable import LightShowConfig

/// A table of bad files, each with the exact diagnostics it must produce (rendered as `FILE:LINE: severity: message`).
@Suite struct BadConfigTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var toml: String
        var expected: [String]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "syntax error with line and column", toml: "[input]\nsource = \"demo\"\n[bands.bass\nlower = 30\n",
             expected: [#"f.toml:3:12: error: syntax error while parsing table header: expected ']', saw '\n'"#]),
        Case(name: "wrong type", toml: "[background]\nangle = \"wide\"\n",
             expected: ["f.toml:2: error: background.angle: expected a number, found a string"]),
        Case(name: "above the axis", toml: "[bands.bass]\nupper = 30000\n",
             expected: ["f.toml:2: error: bands.bass.upper: 30000 is above the axis maximum 20000"]),
        Case(name: "below the axis", toml: "[bands.treble]\n\nlower = 5.5\n",
             expected: ["f.toml:3: error: bands.treble.lower: 5.5 is below the axis minimum 20"]),
        Case(name: "unknown key with did-you-mean", toml: "[bands.bass]\nuper = 200\n",
             expected: [#"f.toml:2: warning: bands.bass.uper: unknown key; did you mean "upper"?"#]),
        Case(name: "unknown section with did-you-mean", toml: "[backgrund]\nangle = 90\n",
             expected: [#"f.toml:1: warning: backgrund: unknown section; did you mean "background"?"#]),
        Case(name: "unknown key far from any", toml: "[control]\nzzzzzzzz = 1\n",
             expected: ["f.toml:2: warning: control.zzzzzzzz: unknown key"]),
        Case(name: "lower above upper", toml: "[bands.mid]\nlower = 5000\nupper = 3000\n",
             expected: ["f.toml:1: error: bands.mid: lower 5000 must be below upper 3000"]),
        Case(name: "lower above the default upper", toml: "[bands.bass]\nlower = 300\n",
             expected: ["f.toml:1: error: bands.bass: lower 300 must be below upper 250"]),
        Case(name: "bad colour", toml: "[bands.treble]\ncolor = \"blue\"\n",
             expected: [##"f.toml:2: error: bands.treble.color: expected "#RRGGBB", found "blue""##]),
        Case(name: "colour of the wrong type", toml: "[background]\nfrom = 0x101020\n",
             expected: [##"f.toml:2: error: background.from: expected "#RRGGBB", found an integer"##]),
        Case(name: "bad input spec", toml: "[input]\nsource = \"fifo:\"\n",
             expected: [#"f.toml:2: error: input.source: expected \#(InputSpec.expectedSyntax), found "fifo:""#]),
        Case(name: "unknown player source", toml: "[player]\nsource = \"winamp\"\n",
             expected: [#"f.toml:2: error: player.source: expected auto, mpd, mpris or none, found "winamp""#]),
        Case(name: "mpris player of the wrong type", toml: "[mpris]\nplayer = 3\n",
             expected: ["f.toml:2: error: mpris.player: expected a string, found an integer"]),
        Case(name: "bad pcm format", toml: "[input]\npcm_format = \"44100:12:2\"\n",
             expected: [#"f.toml:2: error: input.pcm_format: expected \#(PCMFormat.expectedSyntax), found "44100:12:2""#]),
        Case(name: "bad duration", toml: "[playback]\nidle_after = \"10 parsecs\"\n",
             expected: [#"f.toml:2: error: playback.idle_after: expected a duration like "10s", "500ms", "2m" or "1h30m", found "10 parsecs""#]),
        Case(name: "duration out of range", toml: "[playback]\nfade_out = \"2m\"\n",
             expected: ["f.toml:2: error: playback.fade_out: 2m is above the maximum 1m"]),
        Case(name: "integer expected", toml: "[control]\nmax_clients = 2.5\n",
             expected: ["f.toml:2: error: control.max_clients: expected an integer, found a float"]),
        Case(name: "integer out of range", toml: "[control]\nmax_clients = 0\n",
             expected: ["f.toml:2: error: control.max_clients: 0 is below the minimum 1"]),
        Case(name: "section that is not a table", toml: "input = 3\n",
             expected: ["f.toml:1: error: input: expected a table, found an integer"]),
        Case(name: "non-finite number", toml: "[scene]\nmargin = nan\n",
             expected: ["f.toml:2: error: scene.margin: expected a finite number, found nan"]),
        Case(name: "CRLF line endings keep their line numbers", toml: "[input]\r\nsource = \"demo\"\r\n[bands.bass]\r\nupper = 30000\r\n",
             expected: ["f.toml:4: error: bands.bass.upper: 30000 is above the axis maximum 20000"]),
        Case(name: "accents out of range", toml: "[accents]\nmax_flashes_per_second = 31\nheadroom = 0.6\n[accents.treble]\nsensitivity = 0\ndecay = 0\nstrength = 1.5\n",
             expected: [
                 "f.toml:2: error: accents.max_flashes_per_second: 31 is above the maximum 30",
                 "f.toml:3: error: accents.headroom: 0.6 is above the maximum 0.5",
                 "f.toml:5: error: accents.treble.sensitivity: 0 is below the minimum 0.1",
                 "f.toml:6: error: accents.treble.decay: 0 is below the minimum 1",
                 "f.toml:7: error: accents.treble.strength: 1.5 is above the maximum 1",
             ]),
        Case(name: "accents switch of the wrong type", toml: "[accents]\nenabled = \"yes\"\n",
             expected: ["f.toml:2: error: accents.enabled: expected true or false, found a string"]),
        Case(name: "sync offsets out of range", toml: "[output]\ndelay = 5001\n[[lights]]\nprotocol = \"ddp\"\naddress = \"127.0.0.1\"\npixels = 3\ndelay = -1\n",
             expected: [
                 "f.toml:2: error: output.delay: 5001 is above the maximum 5000",
                 "f.toml:7: error: lights[1].delay: -1 is below the minimum 0",
             ]),
        Case(name: "dotted keys find their line", toml: "# comment\nbands.treble.lower = 5\n",
             expected: ["f.toml:2: error: bands.treble.lower: 5 is below the axis minimum 20"]),
        Case(
            name: "every problem is reported, in file order",
            toml: """
            [bands.bass]
            upper = 30000
            colr = "#FFFFFF"
            [background]
            angle = "x"
            to = "#12345"
            [analysis]
            attack_ms = -1
            """,
            expected: [
                "f.toml:2: error: bands.bass.upper: 30000 is above the axis maximum 20000",
                #"f.toml:3: warning: bands.bass.colr: unknown key; did you mean "color"?"#,
                "f.toml:5: error: background.angle: expected a number, found a string",
                ##"f.toml:6: error: background.to: expected "#RRGGBB", found "#12345""##,
                "f.toml:8: error: analysis.attack_ms: -1 is below the minimum 0",
            ]
        ),
    ]

    @Test(arguments: cases)
    func givesItsExactMessages(_ badFile: Case) {
        let report = ConfigurationLoader.parse(badFile.toml)
        #expect(report.diagnostics.map { $0.formatted(file: "f.toml") } == badFile.expected)
    }

    @Test func warningsAloneStillApplyTheFile() {
        let report = ConfigurationLoader.parse("[bands.bass]\nupper = 300\nuper = 1\n")
        #expect(!report.hasErrors)
        #expect(report.warnings.count == 1)
        #expect(report.configuration.bands.bass.range.upper == 300)
    }

    @Test func goodValuesApplyOverTheBase() {
        let report = ConfigurationLoader.parse("""
        [input]
        source = "fifo:/tmp/mpd.fifo"
        pcm_format = "48000:32f:1"
        [bands.mid]
        lower = 300
        upper = 3000.5
        color = "#abcdef"
        [playback]
        idle_after = "1m30s"
        [control]
        max_clients = 4
        """)
        #expect(report.diagnostics == [])
        let c = report.configuration
        #expect(c.input.source == .fifo(path: "/tmp/mpd.fifo"))
        #expect(c.input.pcmFormat == PCMFormat(sampleRate: 48_000, encoding: .float32, channels: 1))
        #expect(c.bands.mid.range == FrequencyRange(lower: 300, upper: 3000.5))
        #expect(c.bands.mid.color == RGBColor(red: 0xAB, green: 0xCD, blue: 0xEF))
        #expect(c.bands.bass == Configuration.defaults.bands.bass)
        #expect(c.playback.idleAfterSeconds == 90)
        #expect(c.control.maxClients == 4)
    }

    @Test func emptyFileIsTheDefaults() {
        let report = ConfigurationLoader.parse("")
        #expect(report.diagnostics == [])
        #expect(report.configuration == .defaults)
    }
}
