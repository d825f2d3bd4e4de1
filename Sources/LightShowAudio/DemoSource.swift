import LightShowSystem
public import LightShowCore

/// The demo track as a source: in real time like a live input, or as fast as possible for offline rendering.
public final class DemoSource: AudioSource {
    public let spec: InputSpec = .demo
    public var sampleRate: Int { DemoSynth.sampleRate }
    public var channels: Int { DemoSynth.channels }
    public let isLive: Bool
    /// Frames to produce before finishing; nil plays forever.
    public let totalFrames: Int64?
    private let recorder = StatisticsRecorder()

    public var statistics: CaptureStatistics { recorder.snapshot }
    public var statisticsChanges: Announcer? { recorder.changes }

    /// - Parameter realtime: pace to the wall clock (true) or render as fast as the consumer takes it.
    /// - Parameter duration: seconds to produce; nil for endless.
    public init(realtime: Bool, duration: Double?) throws(LightShowError) {
        if let duration, !(duration > 0 && duration.isFinite) {
            throw LightShowError("demo duration \(duration) s: expected a positive number of seconds", exitStatus: .usage)
        }
        isLive = realtime
        totalFrames = duration.map { Int64(saturating: ($0 * Double(DemoSynth.sampleRate)).rounded()) }
    }

    public func startReading(into sink: BlockSink) throws(LightShowError) {
        let (paced, total, recorder) = (isLive, totalFrames, recorder)
        // 5 ms blocks in real time, like a capture period; larger ones offline.
        let blockFrames = paced ? DemoSynth.sampleRate / 200 : 4_800
        try DedicatedThread.start(name: "ls-demo") {
            let synth = DemoSynth()
            var pacer = RealtimePacer(sampleRate: DemoSynth.sampleRate)
            var samples = [Float]()
            var position: Int64 = 0
            while !sink.isCancelled() {
                let count = total.map { Int(min(Int64(blockFrames), $0 - position)) } ?? blockFrames
                guard count > 0 else { break }
                synth.render(from: position, frameCount: count, into: &samples)
                let captured = paced ? pacer.wait(untilFrame: position + Int64(count)) : nil
                let block = SampleBlock(samples: samples, channels: DemoSynth.channels, sampleRate: DemoSynth.sampleRate,
                                        startFrame: position, captureTimeNanoseconds: captured)
                position += Int64(count)
                recorder.progressed(frames: count)
                guard sink.deliver(block) else { break }
            }
            recorder.update { $0.state = .finished }
            sink.finish(nil)
        }
    }
}
