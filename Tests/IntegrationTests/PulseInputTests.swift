import Foundation
import Testing
import TestSupport

/// `lightshow analyze --input pulse` against a real PulseAudio laid out like a desktop: the default sink
/// `speakers` plays 1 kHz, `headphones` 2 kHz, and the default source is a 440 Hz "microphone". Band edges put
/// each tone in its own band, so what is recorded is proven by frequency.
@Suite(.serialized, .tags(.pulseAudio)) struct PulseInputTests {
    /// 440 Hz → bass, 1 kHz → mid, 2 kHz → treble.
    static let bands = """
        [bands.bass]
        lower = 20
        upper = 600
        [bands.mid]
        lower = 600
        upper = 1500
        [bands.treble]
        lower = 1500
        upper = 16000
        """

    typealias Line = AnalyzeMPDEndToEndTests.Line

    static func parse(_ line: String) -> Line? { AnalyzeMPDEndToEndTests.parse(line) }

    /// Starts `analyze --input pulse` at 50 fps on `server`, with the band layout above.
    static func analyze(_ server: PulseAudioServer, input: String = "pulse") throws -> RunningLightshow {
        let config = try server.directory.write("bands.toml", Data(bands.utf8))
        return try RunningLightshow(
            ["analyze", "--config", config, "--input", input, "--fps", "50"],
            environment: server.clientEnvironment.merging(["LIGHTSHOW_LOG": "info"]) { $1 })
    }

    /// Frames after `index` for `seconds` of show time (at 50 fps).
    static func frames(_ run: RunningLightshow, after index: Int, seconds: Double) async throws -> [Line] {
        let count = Int(seconds * 50)
        try await waitFor("\(count) frames", timeout: seconds + 10) { run.lines.all.count > index + count }
        return run.lines.elements[(index + 1)...(index + count)].compactMap(parse)
    }

    /// Runs `switchSink` (a `set-default-sink headphones`) and waits for the 2 kHz to light the treble; prints the
    /// time it took and expects it within 2 s. Returns the first frame of the lit run.
    static func followSwitch(
        _ run: RunningLightshow, label: String, _ switchSink: () throws -> Void
    ) async throws -> (index: Int, time: ContinuousClock.Instant) {
        let before = run.lines.all.count - 1
        let switched = ContinuousClock.now
        try switchSink()
        // The first frame of a run of 20 (0.4 s) with the treble lit: a lone lit frame could be the click of the
        // server moving streams about.
        try await waitFor("treble lit for 0.4 s", timeout: 30) { litRun(run, after: before, length: 20) != nil }
        let treble = try #require(litRun(run, after: before, length: 20))
        let follow = treble.time - switched
        print("\(label) follow latency after set-default-sink: \(follow)")
        // The server's change event moves the capture: about 0.25 s here with pactl's own start, and under load the
        // lines reach the test late too. A follower that polled or waited for a reconnect would take seconds.
        #expect(follow < .seconds(2), "\(label) followed the new default sink after \(follow)")
        return treble
    }

    /// The arrival of the first of `length` consecutive frames after `index` with the treble lit.
    static func litRun(_ run: RunningLightshow, after index: Int, length: Int) -> (index: Int, time: ContinuousClock.Instant)? {
        let all = run.lines.all
        var start: Int?
        for position in all.indices where position > index {
            if (parse(all[position].element)?.treble ?? 0) > 0.5 {
                if start == nil { start = position }
                if let start, position - start + 1 >= length { return (start, all[start].time) }
            } else {
                start = nil
            }
        }
        return nil
    }

    @Test func recordsWhatPlaysFollowsTheDefaultSinkAndSurvivesTheServer() async throws {
        let server = try PulseAudioServer.desktop()
        try await server.start()
        defer { server.stop() }
        let run = try Self.analyze(server)
        defer { run.stop() }

        // What plays on speakers (1 kHz), never the 440 Hz microphone.
        let lit = try await run.lines.first("mid lit", timeout: 20) { Self.parse($0).map { $0.mid > 0.8 } ?? false }
        let steady = try await Self.frames(run, after: lit.index + 50, seconds: 1)
        #expect(steady.allSatisfy { $0.mid > 0.8 && $0.bass < 0.05 && $0.treble < 0.05 }, "\(steady.prefix(3))")
        #expect(run.stderr.contains("recording speakers.monitor"), "\(run.stderr)")

        // Headphones plugged in: their 2 kHz shows within half a second. (PulseAudio also moves the 1 kHz stream
        // of the old default over, so mid stays lit.)
        let treble = try await Self.followSwitch(run, label: "pulse") { try server.pactl("set-default-sink", "headphones") }
        // Once the cut between the two streams has passed, still no microphone.
        let afterSwitch = try await Self.frames(run, after: treble.index + 50, seconds: 1)
        #expect(afterSwitch.allSatisfy { $0.treble > 0.8 && $0.bass < 0.05 }, "\(afterSwitch.prefix(3))")
        #expect(run.stderr.contains("now recording headphones.monitor"))

        // The headphones go away: capture moves on to the new default (speakers), not onto the microphone.
        let module = try #require(try server.pactl("list", "modules", "short")
            .split(separator: "\n").first { $0.contains("sink_name=headphones") }?
            .split(separator: "\t").first.map(String.init))
        try server.pactl("unload-module", module)
        try await waitFor("moved on to speakers", timeout: 30) {
            run.stderr.contains("headphones.monitor went away") && run.stderr.split(separator: "\n").last?
                .contains("recording speakers.monitor") == true
        }
        let movedOn = try await Self.frames(run, after: run.lines.all.count + 50, seconds: 1)
        #expect(movedOn.allSatisfy { $0.bass < 0.05 }, "\(movedOn.prefix(3))")

        // The server crashes and comes back: capture resumes by itself, with one line each way.
        server.kill()
        try await waitFor("server lost", timeout: 30) { run.stderr.contains("sound server lost") }
        let lost = run.lines.all.count
        try await server.start()
        try await waitFor("server back", timeout: 30) { run.stderr.contains("is back after") }
        let resumed = try await run.lines.first("mid lit again", after: lost, timeout: 30) {
            Self.parse($0).map { $0.mid > 0.8 } ?? false
        }
        let resumedFrames = try await Self.frames(run, after: resumed.index + 50, seconds: 1)
        #expect(resumedFrames.allSatisfy { $0.mid > 0.8 && $0.bass < 0.05 && $0.treble < 0.05 }, "\(resumedFrames.prefix(3))")
        #expect(run.stderr.components(separatedBy: "sound server lost").count == 2, "\(run.stderr)")
    }

    @Test func anExplicitSourceIsRecordedAndAnUnknownOneExits66() async throws {
        let server = try PulseAudioServer.desktop()
        try await server.start()
        defer { server.stop() }
        // pulse:headphones.monitor records that sink, though it is not the default: 2 kHz lights the treble.
        let run = try Self.analyze(server, input: "pulse:headphones.monitor")
        defer { run.stop() }
        let lit = try await run.lines.first("treble lit", timeout: 20) { Self.parse($0).map { $0.treble > 0.8 } ?? false }
        let steady = try await Self.frames(run, after: lit.index + 50, seconds: 1)
        #expect(steady.allSatisfy { $0.treble > 0.8 && $0.mid < 0.05 && $0.bass < 0.05 }, "\(steady.prefix(3))")

        let unknown = try await LightshowProcess.runDetached(
            ["analyze", "--input", "pulse:nope.monitor"], environment: server.clientEnvironment)
        #expect(unknown.status == 66)
        #expect(unknown.stderr.contains("pulse:nope.monitor") && unknown.stderr.contains("lightshow devices"), "\(unknown.stderr)")
    }

    @Test func withoutAServerAnalyzeSaysSoAndDevicesStillListsALSA() async throws {
        let directory = try TemporaryDirectory()
        let environment = ["PULSE_SERVER": "unix:\(directory.file("none"))", "PULSE_CLIENTCONFIG": "/dev/null"]
        let started = Date()
        let result = try await LightshowProcess.runDetached(["analyze", "--input", "pulse"], environment: environment)
        #expect(result.status == 74)
        #expect(result.stderr.contains("no PulseAudio or PipeWire server answers"), "\(result.stderr)")
        #expect(Date().timeIntervalSince(started) < 5)
        let devices = try await LightshowProcess.runDetached(["devices"], environment: environment)
        #expect(devices.status == 0)
        #expect(devices.stdout.contains("No PulseAudio or PipeWire server answers"))
        #expect(devices.stdout.contains("alsa:"))
    }

    @Test func devicesListsMonitorsAndSourcesUnderTheirInputNames() async throws {
        let server = try PulseAudioServer.desktop()
        try await server.start()
        defer { server.stop() }
        let result = try await LightshowProcess.runDetached(["devices"], environment: server.clientEnvironment)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.contains("pulse:speakers.monitor") && $0.contains("what --input pulse records now") })
        #expect(lines.contains { $0.contains("pulse:headphones.monitor") && !$0.contains("records now") })
        #expect(lines.contains { $0.contains("pulse:mic") && $0.contains("default source") })
        try server.pactl("set-default-sink", "headphones")
        let after = try await LightshowProcess.runDetached(["devices"], environment: server.clientEnvironment)
        #expect(after.stdout.split(separator: "\n").contains { $0.contains("pulse:headphones.monitor") && $0.contains("records now") })
    }
}
