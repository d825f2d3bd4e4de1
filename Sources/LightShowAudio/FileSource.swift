import LightShowSystem
public import LightShowCore

/// A WAV, FLAC or OGG file decoded by libsndfile: as fast as possible, or paced to the wall clock.
public final class FileSource: AudioSource {
    public let spec: InputSpec
    public let sampleRate: Int
    public let channels: Int
    public let isLive: Bool
    /// Frames in the file, as its header declares.
    public let frameCount: Int64
    private let file: SndFile
    private let paced: Bool
    private let recorder = StatisticsRecorder()

    public var statistics: CaptureStatistics { recorder.snapshot }
    public var statisticsChanges: Announcer? { recorder.changes }

    /// Opens `path`. Missing → exit 66; undecodable or empty → exit 65.
    public init(path: String, spec: InputSpec, realtime: Bool) throws(LightShowError) {
        let expected = "a WAV, FLAC or OGG audio file"
        // The path's check names a missing or unreadable file or a directory; the kind of file is checked on
        // what `SndFile` opened.
        _ = try InputPath.check(path, spec: spec, expected: expected)
        file = try SndFile(path: path, spec: spec, expected: expected)
        guard file.frames > 0, file.sampleRate > 0, file.channels > 0 else {
            throw LightShowError("input \(spec) holds no audio (zero length); expected \(expected)", exitStatus: .dataError)
        }
        // The header is outside data: a 2 KB file may claim 2147483647 Hz and 1024 channels, which would size every
        // buffer (and the number of frames shown) from it. Files get raw PCM's bounds.
        guard PCMFormat.sampleRates.contains(file.sampleRate), PCMFormat.channelCounts.contains(file.channels) else {
            throw LightShowError(
                "input \(spec) declares \(file.sampleRate) Hz and \(file.channels) channels; expected "
                    + "\(PCMFormat.sampleRates.lowerBound)…\(PCMFormat.sampleRates.upperBound) Hz and "
                    + "\(PCMFormat.channelCounts.lowerBound)…\(PCMFormat.channelCounts.upperBound) channels",
                exitStatus: .dataError
            )
        }
        self.spec = spec
        sampleRate = file.sampleRate
        channels = file.channels
        frameCount = file.frames
        paced = realtime
        isLive = realtime
    }

    public func startReading(into sink: BlockSink) throws(LightShowError) {
        let (file, spec, rate, channels, paced, recorder) = (file, spec, sampleRate, channels, paced, recorder)
        // Paced playback hands over 5 ms at a time for low latency; offline reading takes big gulps.
        let blockFrames = paced ? max(64, rate / 200) : 4096
        try DedicatedThread.start(name: "ls-file") {
            var pacer = RealtimePacer(sampleRate: rate)
            var buffer = [Float](repeating: 0, count: blockFrames * channels)
            var position: Int64 = 0
            var stopped = false
            while !sink.isCancelled() {
                let count = file.read(into: &buffer, frameCount: blockFrames)
                guard count > 0 else { break }
                let captured = paced ? pacer.wait(untilFrame: position + Int64(count)) : nil
                let samples = count == blockFrames ? buffer : Array(buffer[0..<(count * channels)])
                let block = SampleBlock(samples: samples, channels: channels, sampleRate: rate,
                                        startFrame: position, captureTimeNanoseconds: captured)
                position += Int64(count)
                recorder.progressed(frames: count)
                guard sink.deliver(block) else {
                    stopped = true
                    break
                }
            }
            recorder.update { $0.state = .finished }
            if let error = file.error, !stopped, !sink.isCancelled() {
                sink.finish(LightShowError(
                    "input \(spec) is corrupt or truncated after \(position) frames (\(error)); expected a WAV, FLAC or OGG audio file",
                    exitStatus: .dataError))
            } else {
                sink.finish(nil)
            }
        }
    }
}
