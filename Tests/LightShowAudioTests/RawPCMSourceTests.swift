import LightShowSystem
import Foundation
import LightShowAudio
import LightShowCore
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

@Suite struct RawPCMSourceTests {
    /// Makes a fifo in `dir` and writes `chunks` into it from another thread, closing it after the last.
    /// `beforeChunk` runs before each chunk (after the first) so a test can wait for the reader to catch up.
    private func fifo(in dir: TemporaryDirectory, chunks: [Data], beforeChunk: @escaping @Sendable (Int) -> Void = { _ in }) throws -> String {
        let path = dir.file("audio.fifo")
        #expect(mkfifo(path, 0o600) == 0)
        Thread.detachNewThread {
            guard let handle = FileHandle(forWritingAtPath: path) else { return }
            for (index, chunk) in chunks.enumerated() {
                if index > 0 { beforeChunk(index) }
                handle.write(chunk)
            }
            try? handle.close()
        }
        return path
    }

    /// A fifo written `chunks` of `framesPerChunk` frames each in lockstep with its reader: each chunk (after the
    /// first) once every frame before it has reached the collector, as a paced writer's would. A writer paced by the
    /// clock alone, held back by a loaded machine, catches up in a burst that one read rightly takes whole.
    private func lockstepCollector(in dir: TemporaryDirectory, chunks: [Data], framesPerChunk: Int) throws -> BlockCollector {
        let reader = Locked<BlockCollector?>(nil)
        let path = try fifo(in: dir, chunks: chunks) { index in
            Wait.until(timeout: 30) { (reader.value?.frameCount ?? 0) >= index * framesPerChunk }
        }
        let collector = BlockCollector(try AudioSources.open(.fifo(path: path)))
        reader.value = collector
        return collector
    }

    @Test func fifoDeliversMPDFormatAndDropsTrailingPartialFrame() async throws {
        let dir = try TemporaryDirectory()
        let tone = Signals.interleave(Signals.sine(frequency: 1_000, seconds: 0.5, sampleRate: 44_100), channels: 2)
        let path = try fifo(in: dir, chunks: [Signals.s16le(tone) + Data([0x01, 0x02, 0x03])])
        let source = try AudioSources.open(.fifo(path: path))
        #expect(source.sampleRate == 44_100 && source.channels == 2 && source.isLive)
        let collector = BlockCollector(source)
        #expect(await collector.waitForEnd())
        #expect(collector.error == nil)
        #expect(collector.frameCount == 22_050, "whole frames only; the 3 trailing bytes are dropped")
        let blocks = collector.blocks
        #expect(blocks.allSatisfy { $0.frameCount <= 44_100 / 10 }, "blocks of at most 100 ms")
        #expect(blocks.allSatisfy { $0.captureTimeNanoseconds != nil })
        #expect(abs(Spectrum.dominantFrequency(Spectrum.channel(0, of: collector.samples, channels: 2), sampleRate: 44_100) - 1_000) < 30)
    }

    @Test(arguments: [PCMFormat.Encoding.signed16, .signed24, .signed32, .float32])
    func everyEncodingDecodes(_ encoding: PCMFormat.Encoding) async throws {
        let dir = try TemporaryDirectory()
        let tone = Signals.sine(frequency: 2_000, seconds: 0.25, sampleRate: 48_000, amplitude: 0.25)
        let format = PCMFormat(sampleRate: 48_000, encoding: encoding, channels: 1)
        let path = try fifo(in: dir, chunks: [Signals.pcm(tone, encoding: encoding)])
        let collector = BlockCollector(try AudioSources.open(.fifo(path: path), pcmFormat: format))
        #expect(await collector.waitForEnd())
        let samples = collector.samples
        #expect(samples.count == tone.count)
        let maxError = zip(samples, tone).map { abs($0 - $1) }.max() ?? 1
        #expect(maxError < 1.0 / 16_000, "\(encoding): worst error \(maxError)")
    }

    @Test func blocksArriveBeforeTheWriterCloses() async throws {
        let dir = try TemporaryDirectory()
        let chunk = Signals.s16le(Signals.interleave(Signals.sine(frequency: 500, seconds: 0.1, sampleRate: 44_100), channels: 2))
        let firstArrived = Locked(false)
        let path = try fifo(in: dir, chunks: [chunk, chunk]) { _ in
            // Hold the second chunk until the first has reached the consumer: data streams, it isn't batched to EOF.
            Wait.until(timeout: 30) { firstArrived.value }
        }
        let collector = BlockCollector(try AudioSources.open(.fifo(path: path)))
        #expect(await collector.waitForFrames(4_410))
        firstArrived.value = true
        #expect(await collector.waitForEnd())
        #expect(collector.frameCount == 8_820)
        let starts = collector.blocks.map(\.startFrame)
        #expect(starts == starts.sorted())
    }

    /// A writer of frame-sized chunks (50 ms here) is read as each chunk lands: one block per write, never split.
    @Test func frameSizedWritesArriveAsOneBlockEach() async throws {
        let dir = try TemporaryDirectory()
        let chunkFrames = 2_205
        let chunk = Signals.s16le(Signals.interleave(Signals.sine(frequency: 440, seconds: 0.05, sampleRate: 44_100), channels: 2))
        let collector = try lockstepCollector(in: dir, chunks: Array(repeating: chunk, count: 6), framesPerChunk: chunkFrames)
        #expect(await collector.waitForEnd())
        #expect(collector.blocks.map(\.frameCount) == Array(repeating: chunkFrames, count: 6))
    }

    /// A writer of small pieces (2 ms, like MPD's fifo output) is followed write by write while the show is awake:
    /// no gathering that waits (any wait is latency), and every frame arrives in order.
    @Test func smallWritesArriveAsTheyAreWritten() async throws {
        let dir = try TemporaryDirectory()
        let pieceFrames = 88
        let piece = Signals.s16le(Signals.interleave(Signals.sine(frequency: 440, seconds: 0.002, sampleRate: 44_100), channels: 2))
        let pieces = 100
        let started = Date()
        let collector = try lockstepCollector(in: dir, chunks: Array(repeating: piece, count: pieces), framesPerChunk: pieceFrames)
        #expect(await collector.waitForEnd())
        let took = Date().timeIntervalSince(started)
        #expect(collector.frameCount == pieces * pieceFrames)
        let starts = collector.blocks.map(\.startFrame)
        #expect(starts == starts.sorted())
        #expect(collector.blocks.map(\.frameCount) == Array(repeating: pieceFrames, count: pieces), "one block per write")
        // A reader that gathered by napping, as it does for a sleeping show (a quarter second), would take 25 s.
        #expect(took < 10, "\(pieces) writes followed in \(took) s")
    }

    /// While the consumer sleeps, the reader naps between reads: a real-time writer of 10 ms pieces costs about
    /// four wake-ups a second instead of a hundred, no frame is lost, and waking the consumer ends the nap at once.
    @Test func aSleepingConsumerIsFedInFewerLargerBlocks() async throws {
        let dir = try TemporaryDirectory()
        let piece = Signals.s16le(Signals.interleave(Signals.silence(seconds: 0.01, sampleRate: 44_100), channels: 2))
        let pieces = 150
        let start = Date()
        let path = try fifo(in: dir, chunks: Array(repeating: piece, count: pieces)) { index in
            let wait = start.addingTimeInterval(Double(index) * 0.01).timeIntervalSinceNow
            if wait > 0 { Thread.sleep(forTimeInterval: wait) }
        }
        let source = try AudioSources.open(.fifo(path: path))
        let pace = try #require(source.pace)
        pace.set(asleep: true)
        let blocks = Locked<[(frames: Int, at: UInt64, asleep: Bool)]>([])
        try await source.forEachBlock { block in
            blocks.value.append((block.frameCount, MonotonicClock.now(), pace.isAsleep))
            // Awake for the last half second: blocks follow the writes again.
            if blocks.value.reduce(0, { $0 + $1.frames }) >= 441 * 100 { pace.set(asleep: false) }
            return true
        }
        let all = blocks.value
        #expect(all.reduce(0) { $0 + $1.frames } == pieces * 441, "every frame arrives")
        // Blocks handed over together (within 3 ms) came from one wake-up: a backlog is split into 100 ms blocks.
        func wakeUps(_ blocks: [(frames: Int, at: UInt64, asleep: Bool)]) -> Int {
            zip(blocks.dropFirst(), blocks).filter { $0.at - $1.at > 3_000_000 }.count + (blocks.isEmpty ? 0 : 1)
        }
        let asleep = all.filter(\.asleep), awake = all.filter { !$0.asleep }
        let span = Double((asleep.last?.at ?? 0) - (asleep.first?.at ?? 0)) / 1e9
        #expect(span > 0.6 && wakeUps(asleep) <= 5, "\(wakeUps(asleep)) wake-ups in \(span) s asleep")
        // About 50 writes while awake; a loaded machine may bunch some. A reader that went on napping would wake
        // twice or three times in that half second.
        #expect(wakeUps(awake) >= 20, "\(wakeUps(awake)) wake-ups in 0.5 s awake")
    }

    @Test func forEachBlockRunsOnTheReaderAndStopsWhenAsked() async throws {
        let dir = try TemporaryDirectory()
        let tone = Signals.interleave(Signals.sine(frequency: 700, seconds: 0.5, sampleRate: 44_100), channels: 2)
        let path = try fifo(in: dir, chunks: [Signals.s16le(tone)])
        let frames = Locked(0)
        try await AudioSources.open(.fifo(path: path)).forEachBlock { block in
            frames.value += block.frameCount
            return true
        }
        #expect(frames.value == 22_050, "every frame, then the end of input returns")

        let path2 = dir.file("second.fifo")
        #expect(mkfifo(path2, 0o600) == 0)
        Thread.detachNewThread {
            guard let handle = FileHandle(forWritingAtPath: path2) else { return }
            // Endless until the reader goes away (the write then fails with EPIPE, ignored here).
            signal(SIGPIPE, SIG_IGN)
            let chunk = Signals.s16le(Signals.interleave(Signals.silence(seconds: 0.01, sampleRate: 44_100), channels: 2))
            while (try? handle.write(contentsOf: chunk)) != nil {}
        }
        let blocks = Locked(0)
        try await AudioSources.open(.fifo(path: path2)).forEachBlock { _ in
            blocks.value += 1
            return blocks.value < 3
        }
        #expect(blocks.value == 3, "returning false stops reading")
    }

    /// A fifo nobody writes to is opened without blocking and polled, so cancelling its reader ends it within
    /// 100 ms (a blocking open would wait in the kernel for a writer for ever), and the reader reports its pulse.
    /// A stop request also ends a nap at once: a reader napping for a sleeping show stops as quickly. Its wait
    /// between pulses is longer than that (`Reader.pulseMilliseconds`): the stop rings it awake.
    @Test(arguments: [false, true])
    func aFifoWithNoWriterStopsWhenCancelled(napping: Bool) async throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("silent.fifo")
        #expect(mkfifo(path, 0o600) == 0)
        let source = try AudioSources.open(.fifo(path: path))
        if napping { try #require(source.pace).set(asleep: true) }
        let reading = Task { try await source.forEachBlock { _ in true } }
        #expect(await Wait.until(within: 10) { source.statistics.lastAliveNanoseconds != nil }, "the reader never went round")
        let cancelled = MonotonicClock.now()
        reading.cancel()
        try await reading.value
        let took = Double(MonotonicClock.now() - cancelled) / 1e9
        #expect(took < 0.1 + 0.05, "the reader took \(took) s to notice the stop")
        #expect(source.statistics.lastProgressNanoseconds == nil)
    }

    /// A consumer of `blocks()` that goes away (its stream released) wakes the reader waiting on a silent fifo:
    /// the reader finishes well within its 250 ms pulse.
    @Test func aReleasedStreamStopsTheReaderAtOnce() async throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("silent.fifo")
        #expect(mkfifo(path, 0o600) == 0)
        let source = try AudioSources.open(.fifo(path: path))
        var released: UInt64 = 0
        do {
            let stream = source.blocks()
            #expect(await Wait.until(within: 10) { source.statistics.lastAliveNanoseconds != nil }, "the reader never went round")
            released = MonotonicClock.now()
            withExtendedLifetime(stream) {}
        }
        #expect(await Wait.until(within: 10) { source.statistics.state == .finished }, "the reader never stopped")
        let took = Double(MonotonicClock.now() - released) / 1e9
        #expect(took < 0.1 + 0.05, "the reader took \(took) s to notice the consumer left")
    }

    @Test func missingFifoIsInputNotFound() {
        let error = openError(.fifo(path: "/nonexistent/mpd.fifo"))
        #expect(error?.exitStatus == .noInput)
        #expect(error?.message.contains("/nonexistent/mpd.fifo") == true)
        #expect(error?.message.contains("expected a fifo") == true)
    }

    @Test func directoryIsNotAFifo() throws {
        let dir = try TemporaryDirectory()
        let error = openError(.fifo(path: dir.path))
        #expect(error?.exitStatus == .noInput)
        #expect(error?.message.contains("directory") == true)
    }

    @Test func characterDeviceIsNotAFifo() {
        let error = openError(.fifo(path: "/dev/null"))
        #expect(error?.exitStatus == .noInput)
        #expect(error?.message.contains("neither a fifo nor a file") == true)
    }
}

/// A value shared between a test and a writer thread.
final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
