import LightShowAnalysis
import LightShowAudio
import LightShowCore
import Synchronization
import Testing
import TestSupport
@testable import LightShowEngine

/// What an engine counts for the daemon's metrics: every frame it emits, the analyser's time for each hop, and the
/// latency of each frame made from live audio.
@Suite struct EngineMetricsTests {
    static let fps = 20.0

    /// Runs the whole of `source` through an engine counting into `metrics`; returns the frames the sink got.
    static func run(_ source: any AudioSource, into metrics: EngineMetrics) async throws -> [ShowFrame] {
        let engine = ShowEngine(source: source, configuration: Configuration(), options: .init(framesPerSecond: fps, metrics: metrics))
        let frames = Mutex<[ShowFrame]>([])
        try await engine.run([FrameHandler { frame in frames.withLock { $0.append(frame) } }])
        return frames.withLock { $0 }
    }

    /// A file read offline: every frame counted, one hop timed per analysed frame, and no latency (no capture time).
    @Test func anOfflineRunCountsFramesAndHops() async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("tone.wav", Signals.wav(Signals.sine(frequency: 440, seconds: 1), channels: 1, sampleRate: 48_000))
        let metrics = EngineMetrics()
        let frames = try await Self.run(try AudioSources.open(.file(path: path), pacing: .offline), into: metrics)
        #expect(frames.count >= 20)
        #expect(metrics.framesEmitted == UInt64(frames.count))
        #expect(metrics.analysisHop.snapshot.count == 20, "one per hop of a second at 20 fps")
        #expect(metrics.analysisHop.snapshot.sum > 0)
        #expect(metrics.audioToFrame.snapshot.count == 0)
    }

    /// Live (a file played in real time): each analysed frame's latency is counted, and it is short, since the
    /// engine hands a frame on as soon as its hop is captured.
    @Test func aLiveRunCountsLatency() async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("tone.wav", Signals.wav(Signals.sine(frequency: 440, seconds: 0.5), channels: 1, sampleRate: 48_000))
        let metrics = EngineMetrics()
        let frames = try await Self.run(try AudioSources.open(.file(path: path), pacing: .realtime), into: metrics)
        #expect(metrics.framesEmitted == UInt64(frames.count))
        let hops = metrics.analysisHop.snapshot.count
        #expect(hops == 10)
        let latency = metrics.audioToFrame.snapshot
        #expect(latency.count == hops, "one per analysed frame; the frames of state changes have no audio")
        #expect(latency.sum / Double(latency.count) < 0.25, "mean \(latency.sum / Double(latency.count)) s")
    }

    /// One observation per hop, not per block: the real analyser fed in quarter hops makes four hops from sixteen
    /// blocks, and four are recorded (the blocks without a hop add their time to the next one's).
    @Test func oneObservationPerHopNotPerBlock() {
        let histogram = DurationHistogram(upperBounds: [1])
        let rate = 48_000
        let analyzer = TimedAnalyzer(
            LevelAnalyzer(settings: AnalysisSettings(), bands: BandsSettings(), sampleRate: rate, framesPerSecond: Self.fps),
            hops: histogram
        )
        let hop = rate / Int(Self.fps)
        let tone = Signals.sine(frequency: 440, seconds: 1, sampleRate: rate)
        var made = 0
        for start in stride(from: 0, to: 4 * hop, by: hop / 4) {
            made += analyzer.process(SampleBlock(samples: Array(tone[start..<(start + hop / 4)]), channels: 1, sampleRate: rate, startFrame: Int64(start))).count
        }
        #expect(made == 4)
        #expect(histogram.snapshot.count == 4)
    }
}
