import LightShowCore

/// The engine's sinks as one: each call goes to every sink in order. A sink that throws ends the show (a
/// recording that can't write, a closed stdout); the ones before it have had the frame.
final class SinkFanOut: Sendable {
    private let sinks: [any ShowSink]
    private let audioSinks: [any ShowSink]

    init(_ sinks: [any ShowSink]) {
        self.sinks = sinks
        audioSinks = sinks.filter { $0.takesAudio }
    }

    /// Whether any sink takes the audio.
    var takesAudio: Bool { !audioSinks.isEmpty }

    func audio(_ block: SampleBlock) throws {
        for sink in audioSinks { try sink.audio(block) }
    }

    func show(_ frame: ShowFrame) throws {
        for sink in sinks { try sink.show(frame) }
    }

    func framesDone() {
        for sink in sinks { sink.framesDone() }
    }
}
