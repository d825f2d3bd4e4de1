import Foundation
import LightShowCore
import Testing
import TestSupport

/// `lightshow record` end to end: the real executable, real files, frames decoded with libpng.
@Suite struct RecordTests {
    /// A stereo test track: a bass tone, then bass + mid, then all three bands.
    private func track(in dir: TemporaryDirectory, seconds: Double = 2, sampleRate: Int = 44_100) throws -> String {
        let third = seconds / 3
        let bass = Signals.sine(frequency: 60, seconds: seconds, sampleRate: sampleRate, amplitude: 0.3)
        let mid = Signals.silence(seconds: third, sampleRate: sampleRate) + Signals.sine(frequency: 1000, seconds: seconds - third, sampleRate: sampleRate, amplitude: 0.2)
        let treble = Signals.silence(seconds: 2 * third, sampleRate: sampleRate) + Signals.sine(frequency: 8000, seconds: seconds - 2 * third, sampleRate: sampleRate, amplitude: 0.2)
        let count = min(bass.count, mid.count, treble.count)
        let mono = (0..<count).map { bass[$0] + mid[$0] + treble[$0] }
        return try dir.write("track.wav", Signals.wav(Signals.interleave(mono, channels: 2), channels: 2, sampleRate: sampleRate))
    }

    private func frameNames(_ dir: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix("frame_") }.sorted()
    }

    private func jsonLines(_ dir: String) throws -> [[String: Any]] {
        try String(contentsOfFile: dir + "/frames.jsonl", encoding: .utf8).split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    /// Frames after the audio: a recording ends stopped, with the default fade-out (1.5 s) up to a dark frame.
    private func tail(fps: Double) -> Int {
        Int((PlaybackSettings().fadeOutSeconds * fps).rounded(.up)) + 1
    }

    private func leftovers(_ dir: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".tmp") }
    }

    @Test(arguments: [15.0, 30])
    func nSecondsAtFFpsGiveNTimesFFramesAndLines(fps: Double) throws {
        let dir = try TemporaryDirectory("record-count")
        let input = try track(in: dir, seconds: 2)
        let out = dir.file("out")
        let result = try LightshowProcess.run(["record", "--input", input, "--out", out, "--fps", "\(Int(fps))", "--size", "320x180"])
        #expect(result.status == 0, "\(result.stderr)")
        let audioFrames = Int(2 * fps)
        let expected = audioFrames + tail(fps: fps)
        #expect(try frameNames(out) == (0..<expected).map { "frame_" + String(repeating: "0", count: 6 - String($0).count) + String($0) + ".png" })
        let lines = try jsonLines(out)
        #expect(lines.count == expected)
        #expect(lines.map { $0["index"] as? Int } == (0..<expected).map { $0 })
        #expect(abs((lines.last?["t"] as? Double ?? 0) - Double(expected - 1) / fps) < 1e-4)
        // The input plays to its end, then the show stops and fades out to the background.
        #expect(lines[..<audioFrames].allSatisfy { $0["state"] as? String == "playing" })
        #expect(lines[audioFrames...].allSatisfy { $0["state"] as? String == "stopped" })
        #expect(["bass", "mid", "treble"].allSatisfy { lines.last?[$0] as? Double == 0 }, "the last frame is dark")
        // The audio beside the frames is the whole input, then silence to the frames' length.
        let samples = try ExternalTool.run("soxi", ["-s", out + "/audio.wav"]).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(samples == String(expected * 44_100 / Int(fps)))
        #expect(try leftovers(out).isEmpty)
    }

    @Test func twoRunsGiveByteIdenticalFrames() throws {
        let dir = try TemporaryDirectory("record-determinism")
        let input = try track(in: dir, seconds: 1.5)
        for run in ["a", "b"] {
            let result = try LightshowProcess.run(["record", "--input", input, "--out", dir.file(run), "--size", "320x180"])
            #expect(result.status == 0, "\(result.stderr)")
            // The runs a second apart on the wall clock: no file may carry the time it was written at.
            let second = time(nil)
            while time(nil) == second { usleep(20_000) }
        }
        let names = try frameNames(dir.file("a"))
        #expect(names.count == 45 + tail(fps: 30))
        #expect(try frameNames(dir.file("b")) == names)
        for name in names + ["frames.jsonl", "audio.wav"] {
            let a = try Data(contentsOf: URL(fileURLWithPath: dir.file("a") + "/" + name))
            let b = try Data(contentsOf: URL(fileURLWithPath: dir.file("b") + "/" + name))
            #expect(a == b, "\(name) differs between runs")
        }
    }

    /// Each light's centre in the PNG is its colour at the level frames.jsonl lists, over the gradient.
    @Test(arguments: [(480, 270), (270, 480)])
    func framePixelsMatchTheLevelsListed(width: Int, height: Int) throws {
        let dir = try TemporaryDirectory("record-pixels")
        let input = try track(in: dir, seconds: 1.5)
        let out = dir.file("out")
        let result = try LightshowProcess.run(["record", "--input", input, "--out", out, "--size", "\(width)x\(height)"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try jsonLines(out)
        let configuration = Configuration.defaults
        for index in [10, 30, 44] {
            let line = lines[index]
            let png = try DecodedPNG(path: out + "/" + (try frameNames(out))[index])
            #expect(png.width == width && png.height == height)
            let scene = Scene(frame: ShowFrame(index: index, time: 0, levels: .zero, state: .playing, title: ""), width: width, height: height)
            let centres = scene.lights.map { (Int($0.circle.center.x), Int($0.circle.center.y)) }
            if height > width {
                #expect(centres[0].1 < centres[1].1 && centres[1].1 < centres[2].1, "portrait stacks vertically")
            }
            for (band, centre) in zip(Band.allCases, centres) {
                let level = try #require(line[band.rawValue] as? Double)
                let background = scene.background.color(x: Double(centre.0), y: Double(centre.1), width: Double(width), height: Double(height))
                let expected = configuration.bands[band].color.composited(over: background, alpha: level)
                let actual = png.pixel(centre.0, centre.1)
                let ok = zip(actual, [expected.red, expected.green, expected.blue]).allSatisfy { abs(Int($0) - Int($1)) <= 1 }
                #expect(ok, "frame \(index) \(band) at level \(level): \(actual) vs \(expected)")
            }
        }
        // The test track lights the bass from the start and all three by the end.
        #expect((lines[44]["treble"] as? Double ?? 0) > 0.5)
        #expect((lines[5]["treble"] as? Double ?? 1) < 0.1)
    }

    /// `--config` sets the colours, the gradient and the proportions the frames are drawn with.
    @Test func theConfigFileStylesTheFrames() throws {
        let dir = try TemporaryDirectory("record-config")
        let input = try track(in: dir, seconds: 1)
        let config = try dir.write("lightshow.toml", Data("""
            [background]
            from = "#000000"
            to = "#FF8000"
            angle = 0
            [bands.bass]
            color = "#00FFFF"
            [scene]
            margin = 0.1
            toolbar_height = 0.2
            """.utf8))
        let out = dir.file("out")
        let result = try LightshowProcess.run(["record", "--config", config, "--input", input, "--out", out, "--size", "320x180"])
        #expect(result.status == 0, "\(result.stderr)")
        var configuration = Configuration.defaults
        configuration.background.from = RGBColor(red: 0, green: 0, blue: 0)
        configuration.background.to = RGBColor(red: 0xFF, green: 0x80, blue: 0)
        configuration.background.angle = 0
        configuration.bands.bass.color = RGBColor(red: 0, green: 0xFF, blue: 0xFF)
        configuration.scene.margin = 0.1
        configuration.scene.toolbarHeight = 0.2
        let png = try DecodedPNG(path: out + "/frame_000020.png")
        // Angle 0 runs left to right: black at the left edge, nearly orange at the right, whatever the row.
        #expect(png.pixel(0, 0) == [0, 0, 0])
        #expect(png.pixel(0, 179) == [0, 0, 0])
        #expect(png.pixel(319, 0) == [254, 128, 0])
        let level = try #require(try jsonLines(out)[20]["bass"] as? Double)
        let scene = Scene(frame: ShowFrame(index: 20, time: 0, levels: .zero, state: .playing, title: ""), width: 320, height: 180, style: Scene.Style(configuration))
        #expect(scene.layout.toolbar.height == 36)
        let centre = (Int(scene.lights[0].circle.center.x), Int(scene.lights[0].circle.center.y))
        let background = scene.background.color(x: Double(centre.0), y: Double(centre.1), width: 320, height: 180)
        let expected = configuration.bands.bass.color.composited(over: background, alpha: level)
        let actual = png.pixel(centre.0, centre.1)
        #expect(zip(actual, [expected.red, expected.green, expected.blue]).allSatisfy { abs(Int($0) - Int($1)) <= 1 }, "\(actual) vs \(expected)")
        #expect(level > 0.5, "the bass tone lights the bass")
    }

    @Test(arguments: [
        ["--size", "0x720"], ["--size", "1281x720"], ["--size", "1280x721"], ["--size", "7682x4320"], ["--size", "big"],
        ["--fps", "0"], ["--fps", "1000"], ["--fps", "nan"], ["--duration", "soon"], ["--duration", "0"],
    ])
    func badOptionsAreUsageErrors(arguments: [String]) throws {
        let dir = try TemporaryDirectory("record-usage")
        let result = try LightshowProcess.run(["record", "--input", "demo", "--out", dir.file("out")] + arguments)
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains(arguments[0]), "the message names \(arguments[0]): \(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.file("out")), "nothing written")
    }

    @Test func aNonEmptyDirectoryIsRefusedUnlessForced() throws {
        let dir = try TemporaryDirectory("record-nonempty")
        let input = try track(in: dir, seconds: 0.5)
        try FileManager.default.createDirectory(atPath: dir.file("out"), withIntermediateDirectories: false)
        try dir.write("out/frame_000999.png", Data([0]))
        let refused = try LightshowProcess.run(["record", "--input", input, "--out", dir.file("out"), "--size", "64x36"])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("not empty") && refused.stderr.contains("--force"))
        let forced = try LightshowProcess.run(["record", "--input", input, "--out", dir.file("out"), "--size", "64x36", "--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try frameNames(dir.file("out")).count == 15 + tail(fps: 30), "the stale frame is gone")
    }

    /// A live input that ends by itself (raw PCM on stdin) gives one frame per 1/fps of audio that arrived, then
    /// the fade-out.
    @Test func rawPCMOnStdinRecordsUntilItEnds() throws {
        let dir = try TemporaryDirectory("record-stdin")
        let pcm = Signals.s16le(Signals.interleave(Signals.sine(frequency: 2000, seconds: 1.5, sampleRate: 22_050, amplitude: 0.4), channels: 2))
        let result = try LightshowProcess.run(
            ["record", "--input", "-", "--format-pcm", "22050:16:2", "--out", dir.file("out"), "--size", "64x36", "--fps", "20"],
            stdin: pcm
        )
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try jsonLines(dir.file("out"))
        #expect(lines.count == 30 + tail(fps: 20))
        #expect(try frameNames(dir.file("out")).count == 30 + tail(fps: 20))
        #expect((lines[29]["mid"] as? Double ?? 0) > 0.5, "a 2 kHz tone lights the mid")
    }

    @Test func theDemoRecordsOfflineForItsDuration() throws {
        let dir = try TemporaryDirectory("record-demo")
        let started = Date()
        let result = try LightshowProcess.run(["record", "--input", "demo", "--out", dir.file("out"), "--duration", "4s", "--size", "64x36", "--fps", "10"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try frameNames(dir.file("out")).count == 40 + tail(fps: 10))
        #expect(try jsonLines(dir.file("out")).count == 40 + tail(fps: 10))
        #expect(Date().timeIntervalSince(started) < 60)
    }
}
