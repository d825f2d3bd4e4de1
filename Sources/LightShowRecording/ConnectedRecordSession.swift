import LightShowCore
import LightShowControl
import LightShowRender
import LightShowSystem

/// `lightshow record --connect`: PNG frames of what a running daemon streams, at exactly `framesPerSecond` on the
/// wall clock (each frame shows the newest levels the daemon sent), with `frames.jsonl` beside them. There is no
/// `audio.wav`: the stream carries levels, not audio.
public struct ConnectedRecordSession: Sendable {
    public var socketPath: String
    /// The recording; its configuration colours the frames when the daemon sends no scene of its own.
    public var plan: RecordingPlan

    public init(socketPath: String, plan: RecordingPlan) {
        self.socketPath = socketPath
        self.plan = plan
    }

    /// Records until `duration` or cancellation. Every file is complete when it returns; a stream that breaks
    /// ends the recording with exit 74 after the frames so far are settled.
    public func run() async throws -> RecordSession.Summary {
        let framesPerSecond = plan.framesPerSecond
        let subscription = try await ShowSubscription.open(path: socketPath, framesPerSecond: framesPerSecond)
        defer { subscription.close() }
        let total = plan.duration.map { Int(saturating: ($0 * framesPerSecond).rounded()) }
        let clock = ContinuousClock()
        // A daemon streams at once; one asleep (stopped and dark) may have nothing new to send, so wait briefly.
        let firstDeadline = clock.now.advanced(by: .seconds(1))
        while subscription.latestFrame == nil, subscription.endReason == nil, clock.now < firstDeadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
        // The daemon's scene (colours, gradient, proportions) when it sent one; this config's otherwise. The
        // directory and its files are made on a thread of their own.
        let style = subscription.latestScene ?? Scene.Style(plan.configuration)
        let output = try await DedicatedThread.complete(name: "ls-record-open") { [plan] in
            try plan.makeOutput(style: style, audioFormat: nil)
        }
        let start = clock.now
        var index = 0
        var failure: (any Error)?
        while total.map({ index < $0 }) ?? true {
            do {
                try await clock.sleep(until: start.advanced(by: .seconds(Double(index) / framesPerSecond)), tolerance: nil)
            } catch {
                break  // cancelled: Ctrl-C or SIGTERM
            }
            if let reason = subscription.endReason {
                failure = LightShowError("record --connect \(socketPath): \(reason)", exitStatus: .ioError)
                break
            }
            let time = Double(index) / framesPerSecond
            var frame = subscription.latestFrame
                ?? ShowFrame(index: index, time: time, levels: .zero, state: .stopped, title: "")
            frame.index = index
            frame.time = time
            do {
                try await output.frames.submit(frame)
            } catch {
                failure = error
                break
            }
            index += 1
        }
        // The encoders' threads are joined and the files synced on a thread of their own, cancelled or not.
        return try await DedicatedThread.complete(name: "ls-record-end") { [failure, index] in
            try output.finish(after: failure, seconds: Double(index) / framesPerSecond)
        }
    }
}
