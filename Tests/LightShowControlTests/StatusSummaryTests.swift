@testable import LightShowControl
import Testing

/// `ctl status` for people: one readable line per part, built from the reply as the daemon sends it.
@Suite struct StatusSummaryTests {
    static let reply = """
        {"device":"demo","rate":48000,"channels":2,"state":"playing","reason":"input started","title":"Demo",\
        "levels":{"bass":0.49717023968696594,"mid":0.125,"treble":1.7},"capture":"running","silent":false,"xruns":0,\
        "recoveries":1,"losses":0,"reopens":0,"clients":2,"subscribers":1,"player":false,"config":"/etc/lightshow.toml",\
        "brightness":0.75,"mqtt":{"state":"disconnected","error":"connection refused"},\
        "web":{"state":"serving","url":"http://127.0.0.1:8490/","pid":4242},\
        "lights":[{"name":"desk","destination":"ddp 127.0.0.1:4048","packets":1200,"errors":3,"last_error":"unreachable","sending":true}]}
        """

    @Test func everyPartOnOneReadableLine() throws {
        let lines = StatusSummary.lines(try JSONParser.parse(Array(Self.reply.utf8)))
        #expect(lines == [
            "● playing (input started)",
            "Input:   demo at 48000 Hz, 2 channels; capture running, 0 xruns, 1 recoveries, 0 losses, 0 reopens",
            "Title:   Demo",
            "Levels:  bass █████░░░░░ 50%  mid █▎░░░░░░░░ 13%  treble ██████████ 100%",
            "Outputs: desk ddp 127.0.0.1:4048 sending, 1200 packets, 3 errors (last: unreachable); brightness 75%",
            "Viewers: 2 control clients, 1 subscriber, no player",
            "MQTT:    disconnected: connection refused",
            "Web:     serving http://127.0.0.1:8490/ (lightshow-web, pid 4242)",
            "Config:  /etc/lightshow.toml",
        ])
    }

    @Test func anInputNotOpenSaysWhy() throws {
        let status = try JSONParser.parse(Array(#"{"device":"pulse","rate":null,"state":"stopped","reason":"input not open","error":"no sound server","mqtt":{"state":"off","error":null},"web":{"state":"off"}}"#.utf8))
        #expect(StatusSummary.lines(status) == [
            "● stopped (input not open)",
            "Input:   pulse, not open: no sound server",
            "MQTT:    off",
            "Web:     off",
        ])
    }

    /// What comes from outside may be anything: wrong kinds and absurd numbers are left out, never trapped on.
    @Test func hostileValuesAreLeftOut() throws {
        let status = try JSONParser.parse(Array(#"{"state":7,"device":"demo","rate":1e300,"levels":{"bass":"loud","mid":-3},"clients":-1,"subscribers":2.5,"web":{"state":"serving","pid":1e300}}"#.utf8))
        #expect(StatusSummary.lines(status) == [
            "● unknown",
            "Input:   demo, not open: opening",
            "Levels:  mid ░░░░░░░░░░ 0%",
            "Web:     serving",
        ])
    }

    @Test func barsCountEighths() {
        #expect(StatusSummary.bar(0) == "░░░░░░░░░░")
        #expect(StatusSummary.bar(1) == "██████████")
        #expect(StatusSummary.bar(0.5) == "█████░░░░░")
        #expect(StatusSummary.bar(0.05) == "▌░░░░░░░░░")
    }
}
