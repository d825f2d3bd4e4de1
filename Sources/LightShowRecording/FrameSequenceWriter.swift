public import LightShowCore
import LightShowRender
import LightShowSystem
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Renders and encodes `ShowFrame`s into `frame_%06d.png` on every core, through a bounded queue.
/// Each frame is written under a temporary name by an encoder thread; one committer thread renames frames into
/// place and lists them in `frames.jsonl` strictly in index order, so the directory always holds frames 0…n−1,
/// all valid and all listed, and no lock is held while a file is touched.
/// The first write error stops the recording: frames before the failed one still complete, later ones are
/// discarded, and no temporary file is left.
public final class FrameSequenceWriter: Sendable {
    public let directory: OutputDirectory
    public let width: Int
    public let height: Int
    private let pipeline: Pipeline
    private let encoders: [DedicatedThread.Joinable]
    private let committer: DedicatedThread.Joinable

    /// - Parameter workers: encoding threads (default: one per core).
    public init(directory: OutputDirectory, width: Int, height: Int, style: Scene.Style, workers: Int? = nil) throws(RecordingError) {
        self.directory = directory
        self.width = width
        self.height = height
        let count = max(1, workers ?? Self.coreCount)
        let log = try FramesLog(path: directory.file(OutputDirectory.framesLogName))
        let pipeline = Pipeline(directory: directory, width: width, height: height, style: style, workers: count)
        self.pipeline = pipeline
        let committer: DedicatedThread.Joinable
        do {
            committer = try DedicatedThread.startJoinable(name: "ls-commit") { pipeline.commit(into: log) }
        } catch {
            throw RecordingError(error.message)
        }
        var encoders: [DedicatedThread.Joinable] = []
        do {
            for _ in 0..<count {
                encoders.append(try DedicatedThread.startJoinable(name: "ls-encode") { pipeline.encode() })
            }
        } catch {
            pipeline.work.close(discardingPending: true)
            pipeline.stop(joining: encoders)
            committer.join()
            throw RecordingError(error.message)
        }
        self.committer = committer
        self.encoders = encoders
    }

    deinit {
        pipeline.work.close(discardingPending: true)
        pipeline.stop(joining: encoders)
        committer.join()
    }

    /// Frames renamed into place and listed so far.
    public var committedCount: Int { pipeline.progress.withLock { $0.committed } }

    /// Queues the next frame (indices must run 0, 1, 2, …), suspending while the queue is full.
    /// Throws once the recording has failed; `finish()` then gives the full account.
    public func submit(_ frame: ShowFrame) async throws(RecordingError) {
        while true {
            if let failure = pipeline.failure { throw failure }
            switch pipeline.work.tryPush(frame) {
            case .pushed:
                return
            case .closed:
                throw pipeline.failure ?? RecordingError("the recording was stopped")
            case .full:
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    pipeline.work.whenSpace { continuation.resume() }
                }
            }
        }
    }

    /// Queues the next frame from a thread of its own (a recording's writer), waiting while the queue is full.
    /// Throws once the recording has failed; `finish()` then gives the full account.
    public func submitWaiting(_ frame: ShowFrame) throws(RecordingError) {
        if let failure = pipeline.failure { throw failure }
        guard pipeline.work.push(frame) else {
            throw pipeline.failure ?? RecordingError("the recording was stopped")
        }
    }

    /// Waits until every queued frame is on disk and listed; returns how many frames the directory holds.
    public func finish() throws(RecordingError) -> Int {
        pipeline.work.finish()
        pipeline.stop(joining: encoders)
        committer.join()
        let (count, failure) = pipeline.progress.withLock { ($0.committed, $0.failure) }
        if let failure {
            throw RecordingError("\(failure.message); \(directory.stopNote(frames: count))", exitStatus: failure.exitStatus)
        }
        return count
    }

    static var coreCount: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }
}

/// What the encoder threads and the committer share: the frames to encode, the ones encoded, and how far the
/// recording got.
private final class Pipeline: Sendable {
    struct Progress {
        var committed = 0
        var failure: RecordingError?
        /// Index of the frame that failed; frames below it still go into place.
        var failedIndex = Int.max
    }

    let directory: OutputDirectory
    let width: Int
    let height: Int
    let style: Scene.Style
    let work: BoundedQueue<ShowFrame>
    /// Frames whose file is written under its temporary name, waiting for their turn.
    let encoded: BoundedQueue<EncodedFrame>
    let progress = Mutex(Progress())

    init(directory: OutputDirectory, width: Int, height: Int, style: Scene.Style, workers: Int) {
        self.directory = directory
        self.width = width
        self.height = height
        self.style = style
        work = BoundedQueue(capacity: workers * 2)
        encoded = BoundedQueue(capacity: workers * 2)
    }

    var failure: RecordingError? { progress.withLock { $0.failure } }
    private var failedIndex: Int { progress.withLock { $0.failedIndex } }

    /// Waits for the encoders, then lets the committer finish what they handed it.
    func stop(joining encoders: [DedicatedThread.Joinable]) {
        for encoder in encoders { encoder.join() }
        encoded.finish()
    }

    /// An encoder thread: renders, encodes and writes each frame under its temporary name.
    func encode() {
        let renderer = FrameRenderer()
        let encoder = PNGEncoder()
        while let frame = work.pop() {
            if frame.index >= failedIndex { continue }
            do {
                let scene = Scene(frame: frame, width: width, height: height, style: style)
                let bytes = try encoder.encode(renderer.render(scene))
                let file = try FrameFile.write(
                    bytes, to: directory.file(OutputDirectory.frameName(frame.index)), temporaryPath: temporary(frame.index)
                )
                encoded.push(EncodedFrame(frame: frame, file: file))
            } catch let error as RecordingError {
                fail(error, at: frame.index)
            } catch {
                fail(RecordingError("cannot encode frame \(frame.index): \(error)"), at: frame.index)
            }
        }
    }

    /// The committer thread: moves every frame that is next in line into place and lists it, in index order. A
    /// frame's file that is dropped unplaced (after a failure) takes its temporary name with it.
    func commit(into log: FramesLog) {
        var waiting: [Int: EncodedFrame] = [:]
        var next = 0
        while let encodedFrame = encoded.pop() {
            waiting[encodedFrame.frame.index] = encodedFrame
            while let ready = waiting.removeValue(forKey: next) {
                guard ready.frame.index < failedIndex else {
                    ready.file.discard()
                    break
                }
                do throws(SystemCallError) {
                    try ready.file.place()
                } catch {
                    fail(.write(ready.file.path, error), at: ready.frame.index)
                    break
                }
                do throws(RecordingError) {
                    try log.append(ready.frame)
                } catch {
                    // Unlisted frames must not stay on disk.
                    FileSystem.discard(ready.file.path)
                    fail(error, at: ready.frame.index)
                    break
                }
                next += 1
                progress.withLock { $0.committed = next }
            }
            let stop = failedIndex
            for index in waiting.keys where index >= stop {
                waiting.removeValue(forKey: index)?.file.discard()
            }
        }
        // Finished or stopped: encoded frames that never got their turn leave nothing behind.
        for frame in waiting.values { frame.file.discard() }
    }

    /// Stops at `index`: nothing from there on is queued, encoded or committed; earlier frames in flight finish.
    private func fail(_ error: RecordingError, at index: Int) {
        progress.withLock { progress in
            if index < progress.failedIndex {
                progress.failure = error
                progress.failedIndex = index
            }
        }
        work.close(discardingPending: true)
    }

    private func temporary(_ index: Int) -> String {
        directory.file(OutputDirectory.temporaryName(index))
    }
}

/// A frame whose file is written under its temporary name, handed from its encoder to the committer.
private struct EncodedFrame: Sendable {
    let frame: ShowFrame
    let file: AtomicFile
}
