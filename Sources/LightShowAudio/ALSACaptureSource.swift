import LightShowSystem
public import LightShowCore
import Logging

/// Live capture from an ALSA PCM (`alsa:DEVICE`) that survives overruns, suspends and the device going away.
///
/// A capture thread waits with `snd_pcm_wait` and reads each ~5 ms period with `snd_pcm_readi`. Overruns, suspends
/// and interrupted calls are recovered and counted; a lost device is closed and reopened with backoff while the
/// source yields silence, so the show fades to idle rather than freezing, and capture resumes on its own.
public final class ALSACaptureSource: AudioSource {
    public let spec: InputSpec
    public let device: String
    public let sampleRate: Int
    public let channels: Int
    public var isLive: Bool { true }
    /// Frames per ALSA period, the granularity of capture.
    public let periodFrames: Int
    private let opened: Locked<ALSACaptureDevice?>
    private let parameters: ALSACaptureDevice.Parameters
    private let recorder = StatisticsRecorder()
    private let stallRequest = Locked<Double>(0)

    public var statistics: CaptureStatistics { recorder.snapshot }
    public var statisticsChanges: Announcer? { recorder.changes }

    /// Opens `device` for capture now, so an unknown name fails at start (exit 66) and a broken one too (exit 74).
    public init(device: String) throws(LightShowError) {
        let spec = InputSpec.alsa(device: device)
        let handle: ALSACaptureDevice
        do {
            handle = try ALSACaptureDevice(name: device)
        } catch {
            if error.isUnknownDevice {
                throw LightShowError(
                    "input \(spec): no such capture device (\(error)); run `lightshow devices` to list the names to use",
                    exitStatus: .noInput)
            }
            throw LightShowError(
                "input \(spec) can't be opened for capture (\(error)); run `lightshow devices` to list capture devices",
                exitStatus: .ioError)
        }
        self.spec = spec
        self.device = device
        parameters = handle.parameters
        sampleRate = handle.parameters.sampleRate
        channels = handle.parameters.channels
        periodFrames = handle.parameters.periodFrames
        opened = Locked(handle)
    }

    // About 170 ms may queue for a slow consumer; past that the device overruns and restarts fresh.
    /// Starts the capture thread on the device opened at start-up (once: a second call fails).
    public func startReading(into sink: BlockSink) throws(LightShowError) {
        guard let handle = opened.withLock({ current in defer { current = nil }; return current }) else {
            throw LightShowError("input \(spec) is already being read", exitStatus: .usage)
        }
        let loop = ALSACaptureLoop(
            spec: spec, device: handle, parameters: parameters, sink: sink, recorder: recorder,
            stallRequest: stallRequest, logger: Logger(label: "lightshow.capture"))
        // The thread takes the loop out of the box: a copy captured by the closure would keep the first device
        // open for as long as the thread runs, even after the loop closed it on a loss.
        let pending = Locked<ALSACaptureLoop?>(loop)
        try DedicatedThread.start(name: "ls-alsa") {
            guard var running = pending.withLock({ value in defer { value = nil }; return value }) else { return }
            running.run()
        }
    }

    /// Makes the capture thread sleep for `seconds` before its next read, as a slow machine would: the way tests
    /// force a real overrun.
    @_spi(Testing)
    public func stallReader(seconds: Double) {
        stallRequest.withLock { $0 = seconds }
    }
}
