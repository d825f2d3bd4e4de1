import CALSA
#if canImport(Glibc)
import Glibc
#endif

/// An open ALSA capture PCM with its negotiated hardware parameters; closed when released.
/// Used by one thread at a time: opened by the source (so a bad name fails at once), then read only by its capture thread.
final class ALSACaptureDevice: @unchecked Sendable {
    /// What a read delivers.
    struct Parameters: Equatable {
        var sampleRate: Int
        var channels: Int
        var isFloat: Bool
        var periodFrames: Int
        var bufferFrames: Int
    }

    private let pcm: OpaquePointer
    let name: String
    let parameters: Parameters

    /// Opens `name` for capture (non-blocking; reads wait in `snd_pcm_wait`), negotiates interleaved S16_LE or
    /// FLOAT_LE, 48 kHz or the device's nearest rate, stereo or mono, and a period of about 5 ms, and prepares it.
    /// The capture thread calls `start()` when it begins reading, so no audio piles up before then.
    /// - Parameter required: parameters a reopened device must match, so blocks keep one format.
    init(name: String, required: Parameters? = nil) throws(ALSAError) {
        // alsa-lib would print its own lines for a failed open, each try while a lost device is retried;
        // the thrown error says it once, in our words.
        lightshow_alsa_quiet_errors(1)
        defer { lightshow_alsa_quiet_errors(0) }
        var handle: OpaquePointer?
        let opened = snd_pcm_open(&handle, name, SND_PCM_STREAM_CAPTURE, SND_PCM_NONBLOCK)
        guard opened >= 0, let handle else { throw ALSAError(opened, "snd_pcm_open") }
        // Stored properties are set only once nothing can fail: a throw after that would run `deinit` too, and
        // close the handle a second time.
        let negotiated: Parameters
        do {
            negotiated = try Self.configure(handle, required: required)
            try check(snd_pcm_prepare(handle), "snd_pcm_prepare")
        } catch {
            snd_pcm_close(handle)
            throw error
        }
        pcm = handle
        self.name = name
        parameters = negotiated
    }

    deinit { snd_pcm_close(pcm) }

    private static func configure(_ pcm: OpaquePointer, required: Parameters?) throws(ALSAError) -> Parameters {
        var params: OpaquePointer?
        try check(snd_pcm_hw_params_malloc(&params), "snd_pcm_hw_params_malloc")
        guard let params else { throw ALSAError(-ENOMEM, "snd_pcm_hw_params_malloc") }
        defer { snd_pcm_hw_params_free(params) }
        try check(snd_pcm_hw_params_any(pcm, params), "snd_pcm_hw_params_any")
        try check(snd_pcm_hw_params_set_access(pcm, params, SND_PCM_ACCESS_RW_INTERLEAVED), "set_access")

        let formats = required.map { [$0.isFloat ? SND_PCM_FORMAT_FLOAT_LE : SND_PCM_FORMAT_S16_LE] }
            ?? [SND_PCM_FORMAT_S16_LE, SND_PCM_FORMAT_FLOAT_LE]
        guard let format = formats.first(where: { snd_pcm_hw_params_test_format(pcm, params, $0) == 0 }) else {
            throw ALSAError(-EINVAL, "the device offers neither S16_LE nor FLOAT_LE capture")
        }
        try check(snd_pcm_hw_params_set_format(pcm, params, format), "set_format")

        var channels = UInt32(required?.channels ?? 2)
        try check(snd_pcm_hw_params_set_channels_near(pcm, params, &channels), "set_channels_near")
        var rate = UInt32(required?.sampleRate ?? 48_000)
        try check(snd_pcm_hw_params_set_rate_near(pcm, params, &rate, nil), "set_rate_near")
        if let required, Int(rate) != required.sampleRate || Int(channels) != required.channels {
            throw ALSAError(-EINVAL, "the device came back as \(rate) Hz × \(channels), not \(required.sampleRate) Hz × \(required.channels)")
        }
        // 256 frames at 48 kHz (5.3 ms): short enough for low latency, long enough to keep wake-ups cheap.
        var period = snd_pcm_uframes_t(max(64, Int(rate) * 256 / 48_000))
        try check(snd_pcm_hw_params_set_period_size_near(pcm, params, &period, nil), "set_period_size_near")
        // A deep ring (16 periods) rides out scheduling hiccups on a loaded machine without adding latency:
        // the reader takes each period as soon as it is ready.
        var buffer = period * 16
        try check(snd_pcm_hw_params_set_buffer_size_near(pcm, params, &buffer), "set_buffer_size_near")
        try check(snd_pcm_hw_params(pcm, params), "snd_pcm_hw_params")
        return Parameters(sampleRate: Int(rate), channels: Int(channels), isFloat: format == SND_PCM_FORMAT_FLOAT_LE,
                          periodFrames: Int(period), bufferFrames: Int(buffer))
    }

    /// Waits up to `milliseconds` for a period; true when data is ready.
    func waitForData(milliseconds: Int32) throws(ALSAError) -> Bool {
        let result = snd_pcm_wait(pcm, milliseconds)
        try check(result, "snd_pcm_wait")
        return result > 0
    }

    /// What the device is doing, as far as a reader must act on it.
    enum Condition { case running, overrun, suspended, stopped, disconnected }

    /// Checked when a wait times out: a device can stall in a state no read reports.
    var condition: Condition {
        switch snd_pcm_state(pcm) {
        case SND_PCM_STATE_XRUN: .overrun
        case SND_PCM_STATE_SUSPENDED: .suspended
        case SND_PCM_STATE_DISCONNECTED: .disconnected
        case SND_PCM_STATE_SETUP, SND_PCM_STATE_PREPARED, SND_PCM_STATE_PAUSED: .stopped
        default: .running
        }
    }

    /// Starts a prepared device that is not running.
    func start() throws(ALSAError) {
        try check(snd_pcm_start(pcm), "snd_pcm_start")
    }

    /// Frames ready to read.
    func available() throws(ALSAError) -> Int {
        let result = snd_pcm_avail_update(pcm)
        try check(Int32(truncatingIfNeeded: result), "snd_pcm_avail_update")
        return result
    }

    /// Reads up to `frames` frames as floats into `output` (cleared first). Returns the frames read (0 when none yet).
    func read(frames: Int, into output: inout [Float], scratch: inout [Int16]) throws(ALSAError) -> Int {
        let channels = parameters.channels
        output.removeAll(keepingCapacity: true)
        let count: Int
        if parameters.isFloat {
            output.append(contentsOf: repeatElement(0, count: frames * channels))
            count = output.withUnsafeMutableBytes { snd_pcm_readi(pcm, $0.baseAddress, snd_pcm_uframes_t(frames)) }
            if count > 0 { output.removeLast((frames - count) * channels) } else { output.removeAll(keepingCapacity: true) }
        } else {
            if scratch.count < frames * channels { scratch = [Int16](repeating: 0, count: frames * channels) }
            count = scratch.withUnsafeMutableBytes { snd_pcm_readi(pcm, $0.baseAddress, snd_pcm_uframes_t(frames)) }
            if count > 0 {
                for index in 0..<(count * channels) { output.append(Float(scratch[index]) * (1 / 32_768)) }
            }
        }
        if count == -Int(EAGAIN) { return 0 }
        if count < 0 { throw ALSAError(Int32(truncatingIfNeeded: count), "snd_pcm_readi") }
        return count
    }

    /// Frames between the newest captured sample and the read pointer; nil when the device can't tell.
    func delayFrames() -> Int? {
        var delay: snd_pcm_sframes_t = 0
        return snd_pcm_delay(pcm, &delay) == 0 ? max(0, delay) : nil
    }

    /// `snd_pcm_recover` for an overrun, suspend or interrupted call, then `snd_pcm_start` again.
    func recover(from error: ALSAError) throws(ALSAError) {
        try check(snd_pcm_recover(pcm, error.code, 1), "snd_pcm_recover")
        try check(snd_pcm_start(pcm), "snd_pcm_start")
    }
}

/// Throws an `ALSAError` for a negative libasound result.
private func check(_ result: Int32, _ call: String) throws(ALSAError) {
    if result < 0 { throw ALSAError(result, call) }
}
