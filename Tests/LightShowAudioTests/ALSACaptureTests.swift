import LightShowSystem
import Foundation
import LightShowAnalysis
@_spi(Testing) import LightShowAudio
import LightShowCore
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Capture through the real libasound: the `file` plugin (unpaced) and PulseAudio's null-sink monitor (paced).
/// Serialized because libasound and libpulse read their configuration from this process's environment.
@Suite(.serialized, .tags(.pulseAudio)) struct ALSACaptureTests {
    private func useALSAConfig(_ path: String?) {
        if let path { setenv("ALSA_CONFIG_PATH", path, 1) } else { unsetenv("ALSA_CONFIG_PATH") }
    }

    private func usePulse(_ server: PulseAudioServer) {
        useALSAConfig(nil)
        for (key, value) in server.clientEnvironment { setenv(key, value, 1) }
    }

    /// The band levels of the analyzer (default settings, 60 fps) after it has taken `blocks`.
    private func settledLevels(_ blocks: [SampleBlock], sampleRate: Int) -> BandLevels? {
        let configuration = Configuration.defaults
        let analyzer = LevelAnalyzer(settings: configuration.analysis, bands: configuration.bands,
                                     sampleRate: sampleRate, framesPerSecond: 60)
        return blocks.flatMap { analyzer.process($0) }.last?.levels
    }

    private func expectBand(_ band: Band, litBy levels: BandLevels?, _ context: String) {
        guard let levels else {
            Issue.record("\(context): no analysis frame")
            return
        }
        for other in Band.allCases {
            if other == band {
                #expect(levels[other] >= 0.8, "\(context): \(other) \(levels[other])")
            } else {
                #expect(levels[other] <= 0.1, "\(context): \(other) \(levels[other])")
            }
        }
    }

    @Test(arguments: [(60.0, Band.bass), (1_000.0, .mid), (8_000.0, .treble)])
    func fileDeviceDeliversTheTone(_ frequency: Double, _ band: Band) async throws {
        // Three seconds in the file, two taken: if a starved test process makes the device overrun and drop a
        // little, what is taken is still all tone.
        let tone = Signals.interleave(Signals.sine(frequency: frequency, seconds: 3, sampleRate: 48_000), channels: 2)
        let taken = 96_000
        let device = try ALSAFileDevice(samples: tone, channels: 2)
        useALSAConfig(device.configPath)
        defer { useALSAConfig(nil) }
        let source = try AudioSources.open(.alsa(device: device.name))
        #expect(source.sampleRate == 48_000)
        #expect(source.channels == 2)
        #expect(source.isLive)
        let collector = BlockCollector(source)
        // The file plugin has no end of file: take a counted number of frames.
        #expect(await collector.waitForFrames(taken))
        collector.stop()
        #expect(await collector.waitForEnd())
        #expect(await Wait.until(within: 10) { source.statistics.state == .finished }, "cancelling stops capture")
        let captured = Array(Spectrum.channel(0, of: collector.samples, channels: 2).prefix(taken))
        let firstHalf = Array(captured.prefix(48_000))
        #expect(abs(Spectrum.dominantFrequency(firstHalf, sampleRate: 48_000) - frequency) < 30)
        #expect(abs(Spectrum.rms(firstHalf) - 0.5 / 2.0.squareRoot()) < 0.03)
        #expect(collector.blocks.allSatisfy { $0.captureTimeNanoseconds != nil })
        #expect(source.statistics.framesDelivered >= Int64(taken))
        #expect(source.statistics.losses == 0)
        // What was captured lights the tone's band, and only that one.
        var blocks: [SampleBlock] = []
        var frames = 0
        for block in collector.blocks where frames < taken {
            blocks.append(block)
            frames += block.frameCount
        }
        expectBand(band, litBy: settledLevels(blocks, sampleRate: 48_000), "\(Int(frequency)) Hz")
    }

    @Test func forEachBlockCapturesOnTheReaderThread() async throws {
        let tone = Signals.interleave(Signals.sine(frequency: 500, seconds: 0.5, sampleRate: 48_000), channels: 2)
        let device = try ALSAFileDevice(samples: tone, channels: 2)
        useALSAConfig(device.configPath)
        defer { useALSAConfig(nil) }
        let source = try AudioSources.open(.alsa(device: device.name))
        let samples = Locked<[Float]>([])
        let wanted = device.frameCount * 2
        try await source.forEachBlock { block in
            samples.value += block.samples
            return samples.value.count < wanted
        }
        #expect(await Wait.until(within: 10) { source.statistics.state == .finished }, "returning false stops capture")
        let left = Spectrum.channel(0, of: Array(samples.value.prefix(wanted)), channels: 2)
        #expect(abs(Spectrum.dominantFrequency(Array(left.prefix(16_384)), sampleRate: 48_000) - 500) < 30)
    }

    @Test func unknownDeviceFailsAtStartAndSuggestsDevices() throws {
        let device = try ALSAFileDevice(samples: [0, 0], channels: 2)
        useALSAConfig(device.configPath)
        defer { useALSAConfig(nil) }
        let error = openError(.alsa(device: "no_such_device"))
        #expect(error?.exitStatus == .noInput)
        #expect(error?.message.contains("alsa:no_such_device") == true)
        #expect(error?.message.contains("lightshow devices") == true)
    }

    /// Waits until the newest 16384 frames captured are loud (the tone got through); returns their left channel.
    private func loudStretch(in collector: BlockCollector) async -> [Float] {
        var loud: [Float] = []
        let heard = await Wait.until(within: 30) {
            let left = Spectrum.channel(0, of: collector.newestSamples(2 * 16_384), channels: 2)
            guard left.count == 16_384, Spectrum.rms(left) > 0.2 else { return false }
            loud = left
            return true
        }
        #expect(heard, "the tone reaches the capture")
        return loud
    }

    @Test func pulseCaptureIsPacedAndHearsTheTone() async throws {
        let server = try PulseAudioServer()
        try await server.start()
        defer { server.stop() }
        usePulse(server)
        let dir = try TemporaryDirectory()
        let source = try AudioSources.open(.alsa(device: "pulse"))
        let collector = BlockCollector(source)
        #expect(await collector.waitForFrames(1, seconds: 30))
        // A long tone, so it still plays however long a loaded machine takes to deliver the first of it.
        let tone = Signals.interleave(Signals.sine(frequency: 1_000, seconds: 30, sampleRate: 48_000), channels: 2)
        let player = try server.play(try dir.write("tone.wav", Signals.wav(tone, channels: 2, sampleRate: 48_000)))
        defer { if player.isRunning { player.terminate() } }
        let loud = await loudStretch(in: collector)
        if !loud.isEmpty {
            #expect(abs(Spectrum.dominantFrequency(loud, sampleRate: source.sampleRate) - 1_000) < 30)
            // A second more of the tone, then the analyzer has settled on mid alone (the gain still climbs for
            // the first second of a tone that starts from silence).
            let until = collector.frameCount + source.sampleRate
            #expect(await collector.waitForFrames(until))
            var blocks: [SampleBlock] = []
            var frames = 0
            for block in collector.blocks where frames < until {
                blocks.append(block)
                frames += block.frameCount
            }
            expectBand(.mid, litBy: settledLevels(blocks, sampleRate: source.sampleRate), "paplay 1 kHz")
        }
        // Paced: over two seconds of wall time, about two seconds of audio arrive.
        let (frames0, time0) = (source.statistics.framesDelivered, Date())
        try await Task.sleep(nanoseconds: 2_000_000_000)
        let rate = Double(source.statistics.framesDelivered - frames0) / Date().timeIntervalSince(time0)
        // Never faster than real time (the file plugin, unpaced, gives millions of frames a second); the lower bound
        // is loose because a starved test process may lose audio to overruns, which is not what this checks.
        #expect(rate > 0.3 * Double(source.sampleRate) && rate < 1.3 * Double(source.sampleRate), "\(rate) frames/s")
        #expect(source.statistics.state == .running)
        collector.stop()
        #expect(await Wait.until(within: 10) { source.statistics.state == .finished }, "cancelling stops capture")
    }

    @Test func killedPulseAudioIsLostThenRecovered() async throws {
        let server = try PulseAudioServer()
        try await server.start()
        defer { server.stop() }
        usePulse(server)
        let source = try AudioSources.open(.alsa(device: "pulse"))
        let collector = BlockCollector(source)
        #expect(await Wait.until(within: 30) { source.statistics.framesDelivered > 4_800 })

        server.kill()
        #expect(await Wait.until(within: 15) { source.statistics.state == .lost })
        #expect(source.statistics.losses == 1)
        // While the device is gone the stream goes on with silence, so the show fades instead of freezing.
        let framesAtLoss = collector.frameCount
        let deliveredAtLoss = source.statistics.framesDelivered
        #expect(await collector.waitForFrames(framesAtLoss + 24_000, seconds: 15))
        #expect(!collector.isFinished)

        try await server.start()
        let resumed = await Wait.until(within: 30) {
            let stats = source.statistics
            return stats.state == .running && stats.framesDelivered > deliveredAtLoss + 24_000
        }
        #expect(resumed, "capture resumes by itself")
        let stats = source.statistics
        #expect(stats.losses == 1)
        #expect(stats.reopens == 1)
        #expect(collector.error == nil)
        collector.stop()
        #expect(await Wait.until(within: 10) { source.statistics.state == .finished }, "cancelling stops capture")
    }

    @Test func stalledReaderOverrunsRecoversAndContinues() async throws {
        let server = try PulseAudioServer()
        try await server.start()
        defer { server.stop() }
        usePulse(server)
        guard let source = try AudioSources.open(.alsa(device: "pulse")) as? ALSACaptureSource else {
            Issue.record("alsa: is not an ALSACaptureSource")
            return
        }
        let collector = BlockCollector(source)
        #expect(await Wait.until(within: 30) { source.statistics.framesDelivered > 4_800 })

        source.stallReader(seconds: 0.5)
        #expect(await Wait.until(within: 15) { source.statistics.overruns >= 1 && source.statistics.recoveries >= 1 })
        let afterRecovery = source.statistics.framesDelivered
        #expect(await Wait.until(within: 15) { source.statistics.framesDelivered > afterRecovery + 24_000 },
                "capture continues after the overrun")
        #expect(source.statistics.losses == 0)
        collector.stop()
        #expect(await Wait.until(within: 10) { source.statistics.state == .finished }, "cancelling stops capture")
    }
}
