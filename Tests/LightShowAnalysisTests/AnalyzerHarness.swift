import LightShowAnalysis
import LightShowCore

/// Runs mono signals through a real `LevelAnalyzer`, in blocks like a source would deliver them.
enum AnalyzerHarness {
    /// Accents off: the suites on the envelope, gain and gate measure those alone (an onset's accent would lift a
    /// burst's first frame to full and hide the envelope's timing). `AccentLevelsTests` runs them on.
    static let envelopeOnly: AccentSettings = {
        var settings = AccentSettings()
        settings.enabled = false
        return settings
    }()

    static func frames(
        _ mono: [Float],
        sampleRate: Int = 48_000,
        fps: Double = 60,
        settings: AnalysisSettings = AnalysisSettings(),
        bands: BandsSettings = BandsSettings(),
        accents: AccentSettings = envelopeOnly,
        blockSize: Int = 1024,
        channels: Int = 1
    ) -> [AnalysisFrame] {
        let analyzer = LevelAnalyzer(
            settings: settings, bands: bands, accents: accents, sampleRate: sampleRate, framesPerSecond: fps
        )
        return frames(mono, analyzer: analyzer, blockSize: blockSize, channels: channels)
    }

    static func frames(_ mono: [Float], analyzer: LevelAnalyzer, blockSize: Int = 1024, channels: Int = 1) -> [AnalysisFrame] {
        var output: [AnalysisFrame] = []
        var start = 0
        while start < mono.count {
            let end = min(mono.count, start + blockSize)
            var samples: [Float] = []
            samples.reserveCapacity((end - start) * channels)
            for sample in mono[start..<end] { for _ in 0..<channels { samples.append(sample) } }
            let block = SampleBlock(samples: samples, channels: channels, sampleRate: analyzer.sampleRate, startFrame: Int64(start))
            output += analyzer.process(block)
            start = end
        }
        return output
    }

    /// The levels over the last `seconds` of the run: the settled state.
    static func settled(_ frames: [AnalysisFrame], lastSeconds seconds: Double) -> [BandLevels] {
        guard let end = frames.last?.time else { return [] }
        return frames.filter { $0.time > end - seconds }.map(\.levels)
    }
}
