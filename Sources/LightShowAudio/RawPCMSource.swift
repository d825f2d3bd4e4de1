#if canImport(Glibc)
import Glibc
#endif
public import LightShowCore

/// Raw interleaved PCM from a fifo (MPD's fifo output) or stdin, handed on as it arrives.
public final class RawPCMSource: AudioSource {
    public let spec: InputSpec
    public let format: PCMFormat
    public var sampleRate: Int { format.sampleRate }
    public var channels: Int { format.channels }
    public var isLive: Bool { true }
    private let path: String?
    private let recorder = StatisticsRecorder()

    public var statistics: CaptureStatistics { recorder.snapshot }

    /// A fifo (or a regular file of raw PCM) at `path`, or stdin when `path` is nil.
    public init(path: String?, spec: InputSpec, format: PCMFormat) throws(LightShowError) {
        if let path {
            let expected = "a fifo of raw \(format) PCM"
            if try InputPath.check(path, spec: spec, expected: expected) == .other {
                throw LightShowError("input \(spec) is neither a fifo nor a file; expected \(expected)", exitStatus: .noInput)
            }
        }
        self.spec = spec
        self.format = format
        self.path = path
    }

    public func blocks() -> AsyncThrowingStream<SampleBlock, any Error> {
        BlockSink.stream(capacity: 64) { try startReading(into: $0) }
    }

    public func forEachBlock(_ body: @escaping @Sendable (SampleBlock) -> Bool) async throws {
        try await BlockSink.run(body) { try startReading(into: $0) }
    }

    /// Starts the reader thread, which hands blocks to `sink` and finishes it at the end of input or on failure.
    private func startReading(into sink: BlockSink) throws(LightShowError) {
        let (path, spec, format, recorder) = (path, spec, format, recorder)
        // The cap (20 ms) only splits a backlog; splitting it finer would add wake-ups, not speed.
        let readBytes = max(1, format.sampleRate / 50) * format.bytesPerFrame
        try DedicatedThread.start(name: "ls-pcm") {
            let reader = Reader(path: path, spec: spec, format: format, readBytes: readBytes, sink: sink, recorder: recorder)
            do {
                try reader.run()
                recorder.update { $0.state = .finished }
                sink.finish(nil)
            } catch {
                recorder.update { $0.state = .finished }
                sink.finish(error)
            }
        }
    }

    /// The reader thread's loop.
    private struct Reader {
        /// Gathers a writer's small writes into blocks of one frame at 60 fps.
        static let minimumReadIntervalNanoseconds: UInt64 = 16_666_667

        /// Opens `path` for reading; without access-time updates where allowed (our own files), since every
        /// read of a fifo would otherwise stamp its inode.
        static func open(_ path: String) -> Int32 {
            let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC | noAccessTime)
            return fd < 0 && errno == EPERM ? Glibc.open(path, O_RDONLY | O_CLOEXEC) : fd
        }

        /// Linux's O_NOATIME, which Glibc's Swift overlay doesn't export.
        static let noAccessTime: Int32 = 0o1_000_000

        /// Waits until `fd` has input, but no more than `milliseconds` (250: the loop wakes now and then to notice a
        /// consumer that has gone away). True when there is input (or the end of it) to read.
        static func waitForInput(_ fd: Int32, milliseconds: Int32 = 250) -> Bool {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            return poll(&poller, 1, milliseconds) > 0
        }

        let path: String?
        let spec: InputSpec
        let format: PCMFormat
        let readBytes: Int
        let sink: BlockSink
        let recorder: StatisticsRecorder

        func run() throws(LightShowError) {
            // A fifo's open waits here, on the reader thread, until a writer (MPD) opens the other end.
            let fd = path.map(Self.open) ?? 0
            guard fd >= 0 else {
                throw LightShowError("input \(spec) can't be opened: \(String(cString: strerror(errno)))", exitStatus: .noInput)
            }
            defer { if path != nil { close(fd) } }
            // Our own fifo is read without blocking, so a wake-up with audio waiting costs one read, not a poll
            // and a read (stdin's file is shared with others, so it stays as it is and is polled first).
            let pollsFirst = path == nil || fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) != 0
            var decoder = PCMDecoder(format: format)
            var buffer = [UInt8](repeating: 0, count: readBytes)
            var position: Int64 = 0
            // A writer's small writes (MPD: 5–10 ms) are gathered into one block per interval: each wake-up costs
            // more than the audio it brings, and a block much shorter than a frame makes no frame sooner.
            var nextRead: UInt64 = 0
            // After a full read (maybe a backlog, read on at once): when to read next if nothing more waits.
            var gatherUntil: UInt64 = 0
            while !sink.isCancelled() {
                if nextRead > MonotonicClock.now() { MonotonicClock.sleep(until: nextRead) }
                nextRead = 0
                if pollsFirst && !Self.waitForInput(fd, milliseconds: gatherUntil > 0 ? 0 : 250) {
                    swap(&nextRead, &gatherUntil)
                    continue
                }
                let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, readBytes) }
                if count < 0 {
                    if errno == EAGAIN {
                        // The backlog is drained: gather from here on; or nothing came even so: wait for it.
                        if gatherUntil > 0 { swap(&nextRead, &gatherUntil) } else { _ = Self.waitForInput(fd) }
                        continue
                    }
                    if errno == EINTR { continue }
                    throw LightShowError("input \(spec): read failed: \(String(cString: strerror(errno)))", exitStatus: .ioError)
                }
                if count == 0 { break }
                let now = MonotonicClock.now()
                if count < readBytes {
                    nextRead = now + Self.minimumReadIntervalNanoseconds
                    gatherUntil = 0
                } else {
                    gatherUntil = now + Self.minimumReadIntervalNanoseconds
                }
                let samples = buffer.withUnsafeBytes { decoder.decode(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
                guard !samples.isEmpty else { continue }
                let block = SampleBlock(samples: samples, channels: format.channels, sampleRate: format.sampleRate,
                                        startFrame: position, captureTimeNanoseconds: now)
                position += Int64(block.frameCount)
                recorder.progressed(frames: block.frameCount, at: now)
                guard sink.deliver(block) else { return }
            }
        }
    }
}
