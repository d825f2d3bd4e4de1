#if canImport(Glibc)
import Glibc
#endif
import LightShowSystem
public import LightShowCore

/// Raw interleaved PCM from a fifo (MPD's fifo output) or stdin, handed on as it arrives.
public final class RawPCMSource: AudioSource {
    public let spec: InputSpec
    public let format: PCMFormat
    public var sampleRate: Int { format.sampleRate }
    public var channels: Int { format.channels }
    public var isLive: Bool { true }
    /// Nil only when the system refuses its wake-up pipe: the reader then just never naps.
    public let pace: ReaderPace? = try? ReaderPace()
    private let path: String?
    private let recorder = StatisticsRecorder()

    public var statistics: CaptureStatistics { recorder.snapshot }
    public var statisticsChanges: Announcer? { recorder.changes }

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

    /// Starts the reader thread, which hands blocks to `sink` and finishes it at the end of input or on failure.
    public func startReading(into sink: BlockSink) throws(LightShowError) {
        let (path, spec, format, recorder, pace) = (path, spec, format, recorder, pace)
        // Big enough that one read takes all a writer left in the pipe (a 64 KiB pipe holds about 370 ms of
        // 44.1 kHz stereo); the cap only splits a larger backlog into blocks.
        let readBytes = max(1, format.sampleRate / 10) * format.bytesPerFrame
        try DedicatedThread.start(name: "ls-pcm") {
            let reader = Reader(path: path, spec: spec, format: format, readBytes: readBytes, sink: sink, recorder: recorder,
                                pace: pace)
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

    /// The reader thread's loop: it wakes when data arrives (a write of any size is read at once, since any delay
    /// is latency), and only while the show sleeps does it nap and take a backlog.
    private struct Reader {
        /// Opens `path` for reading without blocking: a fifo's blocking open waits in the kernel until a writer
        /// comes, where no stop request can reach it. Without access-time updates where allowed (our own files),
        /// since every read of a fifo would otherwise stamp its inode.
        static func open(_ path: String) throws(SystemCallError) -> OwnedDescriptor {
            let flags = O_RDONLY | O_NONBLOCK | O_NOCTTY
            do throws(SystemCallError) {
                return try OwnedDescriptor.open(path, flags | noAccessTime)
            } catch where error.code == EPERM {
                return try OwnedDescriptor.open(path, flags)
            }
        }

        /// Linux's O_NOATIME, which Glibc's Swift overlay doesn't export.
        static let noAccessTime: Int32 = 0o1_000_000

        /// How long the loop waits for input before it goes round anyway: four times a second while the writer is
        /// silent or absent (a paused MPD), which the watchdog takes as alive. A stop request wakes it at once
        /// (`BlockSink.stopped`); without that pipe, it is noticed within this.
        static let pulseMilliseconds: Int64 = 250

        /// Waits until `fd` has input or `stopped` rings, but no more than `milliseconds`. A fifo opened without
        /// blocking and no writer yet polls as "no input", not as a hang-up. True when there is input (or the
        /// end of it) to read.
        static func waitForInput(_ fd: Int32, stopped: WakeSignal?, milliseconds: Int64) -> Bool {
            withUnsafeTemporaryAllocation(of: pollfd.self, capacity: 2) { pollers in
                // A negative descriptor is skipped by poll.
                pollers[0] = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                pollers[1] = pollfd(fd: stopped?.readFD ?? -1, events: Int16(POLLIN), revents: 0)
                return Poll.wait(pollers.baseAddress!, count: 2, timeout: .milliseconds(milliseconds)) > 0
                    && pollers[0].revents != 0
            }
        }

        let path: String?
        let spec: InputSpec
        let format: PCMFormat
        let readBytes: Int
        let sink: BlockSink
        let recorder: StatisticsRecorder
        let pace: ReaderPace?

        /// What one pass over the pipe found.
        private enum Drained {
            case bytes(Int)
            /// The writer closed its end, or the consumer wants no more.
            case finished
        }

        func run() throws(LightShowError) {
            // Standard input (nil) stays open: it isn't ours.
            var opened: OwnedDescriptor?
            if let path {
                do throws(SystemCallError) {
                    opened = try Self.open(path)
                } catch {
                    throw LightShowError("input \(spec) can't be opened: \(error.message)", exitStatus: .noInput)
                }
            }
            let fd = opened?.rawValue ?? 0
            // Our own fifo is read without blocking, so a drain never waits; stdin's file is shared with others, so
            // it stays as it is and is polled before every read.
            let pollsFirst = path == nil
            var decoder = PCMDecoder(format: format)
            var buffer = [UInt8](repeating: 0, count: readBytes)
            var position: Int64 = 0
            // A nap must end while the pipe still has room: a bigger pipe (256 KiB, 1.5 s of 44.1 kHz stereo) lets
            // a sleeping show wake only a few times a second, and a nap takes at most a third of what it holds.
            let pipeBytes = PipeCapacity.grow(fd, toAtLeast: 262_144) ?? 65_536
            let bytesPerSecond = max(1, format.sampleRate * format.bytesPerFrame)
            let longestNap = Duration.nanoseconds(Int64(clamping: pipeBytes / 3 * 1_000_000_000 / bytesPerSecond))

            /// Reads until the pipe is empty (a short read), a block per read.
            func drain() throws(LightShowError) -> Drained {
                var total = 0
                while true {
                    let count: Int
                    do throws(SystemCallError) {
                        switch try FileDescriptorIO.read(fd, into: &buffer) {
                        case .bytes(let read): count = read
                        case .wouldBlock: return .bytes(total)
                        case .endOfFile: return .finished
                        }
                    } catch {
                        throw LightShowError("input \(spec): read failed: \(error.message)", exitStatus: .ioError)
                    }
                    total += count
                    let now = MonotonicClock.now()
                    let samples = buffer.withUnsafeBytes { decoder.decode(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
                    if !samples.isEmpty {
                        let block = SampleBlock(samples: samples, channels: format.channels, sampleRate: format.sampleRate,
                                                startFrame: position, captureTimeNanoseconds: now)
                        position += Int64(block.frameCount)
                        recorder.progressed(frames: block.frameCount, at: now)
                        guard sink.deliver(block) else { return .finished }
                    }
                    // A full read may have left more behind; a short one emptied the pipe.
                    if count < readBytes || pollsFirst { return .bytes(total) }
                }
            }

            while !sink.isCancelled() {
                recorder.alive()
                // Asleep, the reader takes what piled up during a nap, one wake-up for many writes; otherwise it
                // waits for the next write.
                let napped = pace?.napIfAsleep(upTo: longestNap) == true
                let wait = napped ? 0 : Self.pulseMilliseconds
                guard Self.waitForInput(fd, stopped: sink.stopped, milliseconds: wait) else { continue }
                if case .finished = try drain() { return }
            }
        }
    }
}
