import Foundation
import LightShowAnalysis
import LightShowAudio
import LightShowCore
import LightShowEngine
import Synchronization
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A live input written in pieces much smaller than a hop (as MPD's fifo output and the benchmarks write): the
/// engine holds the pieces that complete no hop for the one that does. Nothing may change for the show: the same
/// frames as one whole block gives, and every sample reaches the sinks, the tail after the last hop too.
@Suite struct LiveBlockHoldingTests {
    static let fps = 20.0
    static let rate = 44_100

    /// A sink that keeps the frames and counts the audio frames it was given.
    final class Recorder: ShowSink {
        let frames = Mutex<[ShowFrame]>([])
        let audioFrames = Mutex(0)
        var takesAudio: Bool { true }
        func audio(_ block: SampleBlock) throws { audioFrames.withLock { $0 += block.frameCount } }
        func show(_ frame: ShowFrame) throws { frames.withLock { $0.append(frame) } }
    }

    @Test func smallWritesGiveTheFramesOfOneBlockAndLoseNoAudio() async throws {
        // 1.03 s: twenty whole hops and a 30 ms tail that completes none.
        let tone = Signals.interleave(Signals.sine(frequency: 1_000, seconds: 1.03, sampleRate: Self.rate, amplitude: 0.4), channels: 2)
        let bytes = Signals.s16le(tone)
        let directory = try TemporaryDirectory()
        let path = directory.file("audio.fifo")
        #expect(mkfifo(path, 0o600) == 0)
        // 4.4 ms pieces (a twelfth of a hop), each its own write with the reader given time to take it alone.
        let piece = 194 * 4
        Thread.detachNewThread {
            guard let handle = FileHandle(forWritingAtPath: path) else { return }
            var offset = 0
            while offset < bytes.count {
                handle.write(bytes[offset..<min(bytes.count, offset + piece)])
                offset += piece
                usleep(1_000)
            }
            try? handle.close()
        }
        let source = try AudioSources.open(.fifo(path: path))
        #expect(source.isLive)
        let engine = ShowEngine(source: source, configuration: Configuration(), options: .init(framesPerSecond: Self.fps))
        let recorder = Recorder()
        try await engine.run([recorder])

        #expect(recorder.audioFrames.withLock { $0 } == tone.count / 2, "every sample reached the sinks")
        // The analyser on the whole signal at once: the frames the show must have made.
        let decoded = bytes.withUnsafeBytes { raw in
            raw.bindMemory(to: Int16.self).map { Float(Int16(littleEndian: $0)) * (1 / 32_768) }
        }
        let analyzer = LevelAnalyzer(settings: Configuration().analysis, bands: Configuration().bands, sampleRate: Self.rate,
                                     framesPerSecond: Self.fps)
        let expected = analyzer.process(SampleBlock(samples: decoded, channels: 2, sampleRate: Self.rate, startFrame: 0))
        #expect(expected.count == 20)
        let analysed = recorder.frames.withLock { $0 }.filter { $0.state == .playing }
        #expect(analysed.map(\.time) == expected.map(\.time))
        for (frame, reference) in zip(analysed, expected) {
            #expect(frame.levels == reference.levels, "at \(frame.time)")
        }
    }
}
