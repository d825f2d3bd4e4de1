import LightShowSystem
import LightShowCore
#if canImport(Glibc)
import Glibc
#endif
import Logging

/// The capture thread's work: read periods, recover from faults, reopen a lost device with backoff.
struct ALSACaptureLoop: Sendable {
    let spec: InputSpec
    private(set) var device: ALSACaptureDevice?
    let parameters: ALSACaptureDevice.Parameters
    let sink: BlockSink
    let recorder: StatisticsRecorder
    let stallRequest: Locked<Double>
    let logger: Logger

    /// Set when the consumer wants no more blocks.
    private var stopped = false
    private var position: Int64 = 0
    private var lastReadTime: UInt64 = MonotonicClock.now()
    private var backoff = ReopenBackoff()
    private var nextAttempt: UInt64 = 0
    private var failedAttempts = 0
    private var nextFill: UInt64 = 0
    private var samples: [Float] = []
    private var scratch: [Int16] = []

    init(spec: InputSpec, device: ALSACaptureDevice, parameters: ALSACaptureDevice.Parameters, sink: BlockSink,
         recorder: StatisticsRecorder, stallRequest: Locked<Double>, logger: Logger) {
        self.spec = spec
        self.device = device
        self.parameters = parameters
        self.sink = sink
        self.recorder = recorder
        self.stallRequest = stallRequest
        self.logger = logger
    }

    private var bufferNanoseconds: UInt64 {
        UInt64(Double(parameters.bufferFrames) / Double(parameters.sampleRate) * 1e9)
    }

    mutating func run() {
        if let device {
            do {
                try device.start()
                lastReadTime = MonotonicClock.now()
            } catch {
                lose(error)
            }
        }
        while !stopped, !sink.isCancelled() {
            let stall = stallRequest.withLock { value in defer { value = 0 }; return value }
            if stall > 0 { MonotonicClock.sleep(seconds: stall) }
            if let device {
                capture(from: device)
            } else {
                waitForDevice()
            }
        }
        device = nil
        recorder.update { $0.state = .finished }
        sink.finish(nil)
    }

    /// Waits for one period (or a timeout, to notice a consumer that left) and hands it on.
    private mutating func capture(from device: ALSACaptureDevice) {
        do {
            guard try device.waitForData(milliseconds: 250) else {
                try checkStalled(device)
                return
            }
            let available = try device.available()
            let now = MonotonicClock.now()
            // The ring is full and the reader was away longer than it holds: audio was lost, and what is queued is
            // stale. The kernel reports this as -EPIPE; plugins such as pulse don't, so detect it here.
            if available >= parameters.bufferFrames - parameters.periodFrames, now - lastReadTime >= bufferNanoseconds {
                recover(device, from: .overrun("capture ring full after \((now - lastReadTime) / 1_000_000) ms"))
                return
            }
            let frames = min(max(available, parameters.periodFrames), parameters.periodFrames * 4)
            let count = try device.read(frames: frames, into: &samples, scratch: &scratch)
            guard count > 0 else { return }
            let readTime = MonotonicClock.now()
            lastReadTime = readTime
            // The newest sample read is `delay` frames older than the device's newest.
            let age = device.delayFrames().map { UInt64(Double($0) / Double(parameters.sampleRate) * 1e9) } ?? 0
            let block = SampleBlock(samples: samples, channels: parameters.channels, sampleRate: parameters.sampleRate,
                                    startFrame: position, captureTimeNanoseconds: readTime - min(age, readTime))
            position += Int64(count)
            recorder.progressed(frames: count, at: readTime)
            if !sink.deliver(block) { stopped = true }
        } catch where error.isRecoverable {
            recover(device, from: error)
        } catch {
            lose(error)
        }
    }

    /// A quarter second without data: act on a state that no read would report.
    private mutating func checkStalled(_ device: ALSACaptureDevice) throws(ALSAError) {
        switch device.condition {
        case .running: return
        case .overrun: recover(device, from: .overrun("snd_pcm_state: XRUN"))
        case .suspended: recover(device, from: ALSAError(-ESTRPIPE, "snd_pcm_state: SUSPENDED"))
        case .stopped: try device.start()
        case .disconnected: throw ALSAError(-ENODEV, "snd_pcm_state: DISCONNECTED")
        }
    }

    /// Clears an overrun, suspend or interrupted call; a failed recovery counts as losing the device.
    private mutating func recover(_ device: ALSACaptureDevice, from error: ALSAError) {
        recorder.update { if error.isOverrun { $0.overruns += 1 } }
        logger.debug("\(spec): \(error); recovering")
        do {
            try device.recover(from: error)
            lastReadTime = MonotonicClock.now()
            recorder.update { $0.recoveries += 1 }
        } catch {
            lose(error)
        }
    }

    /// Closes the device and schedules the first reopen.
    private mutating func lose(_ error: ALSAError) {
        device = nil
        recorder.update {
            $0.losses += 1
            $0.state = .lost
        }
        logger.warning("\(spec) lost (\(error)); reopening every 0.5–5 s until it returns")
        backoff.reset()
        failedAttempts = 0
        let now = MonotonicClock.now()
        nextAttempt = now + UInt64(backoff.next() * 1e9)
        nextFill = now
    }

    /// While the device is away: yield silence in real time and try to reopen it when the backoff allows.
    private mutating func waitForDevice() {
        let fillFrames = parameters.sampleRate / 50
        let fillStep = UInt64(20_000_000)
        if MonotonicClock.now() >= nextAttempt {
            do {
                let reopened = try ALSACaptureDevice(name: deviceName, required: parameters)
                try reopened.start()
                device = reopened
                lastReadTime = MonotonicClock.now()
                recorder.update { $0.reopens += 1 }
                logger.notice("\(spec) is back after \(failedAttempts + 1) attempt(s); capturing again")
                return
            } catch {
                failedAttempts += 1
                logger.debug("\(spec) still unavailable (\(error))")
                nextAttempt = MonotonicClock.now() + UInt64(backoff.next() * 1e9)
            }
        }
        MonotonicClock.sleep(until: min(nextFill, nextAttempt))
        guard MonotonicClock.now() >= nextFill else { return }
        nextFill += fillStep
        let silence = [Float](repeating: 0, count: fillFrames * parameters.channels)
        if !sink.deliver(SampleBlock(samples: silence, channels: parameters.channels, sampleRate: parameters.sampleRate,
                                 startFrame: position, captureTimeNanoseconds: MonotonicClock.now())) {
            stopped = true
        }
        position += Int64(fillFrames)
    }

    private var deviceName: String {
        if case .alsa(let name) = spec { return name }
        return spec.description
    }
}
