import LightShowCore

/// One WLED audio sync output's packet contents for a scene: the volume from the largest band level (gain and the
/// state's dimming already applied), the GEQ and the peak from the analysis' spectrum summary, and `samplePeak`
/// for a new bass onset, held until one packet has carried it.
///
/// Playing, it keeps the newest spectrum; paused, it sends that one dimmed by the paused frame's level over the
/// level it came with (the dim every other output shows); stopped, zeros.
struct AudioSyncPainter: Sendable {
    /// `FFT_Magnitude` at a full-height peak: WLED's Freqmap divides it by 4 into a 0…255 brightness.
    static let fullMagnitude: Float = 1020

    private var held: SpectrumSummary?
    private var heldLevel: Float = 0
    /// The onset the last packet sent flagged, and the one the newest painting flags.
    private var flagged: Double?
    private var pending: Double?

    /// The packet body (`WLEDSyncPacket.body`) for `scene`.
    mutating func paint(_ scene: LightScene) -> [UInt8] {
        WLEDSyncPacket.body(fields(scene))
    }

    /// The newest painting flags a beat no packet has carried yet: it goes out at once, off the output's grid, so
    /// a beat reaches the device as soon as it would reach a DDP strip.
    var hasBeat: Bool { pending != nil }

    /// A packet with the newest painting went out: its peak is spent.
    mutating func sent() {
        if let pending {
            flagged = pending
            self.pending = nil
        }
    }

    mutating func fields(_ scene: LightScene) -> WLEDSyncPacket.Fields {
        pending = nil
        var fields = WLEDSyncPacket.Fields()
        let level = Float(Band.allCases.map { scene.alpha(of: $0) }.max() ?? 0)
        let spectrum: SpectrumSummary?
        switch scene.state {
        case .stopped:
            return fields
        case .playing:
            if let current = scene.spectrum {
                held = current
                heldLevel = level
            }
            spectrum = held
            if let onset = spectrum?.lastBassOnset, onset != flagged {
                pending = onset
                fields.samplePeak = 1
            }
        case .paused:
            spectrum = held?.scaled(by: heldLevel > 0 ? min(1, level / heldLevel) : 0)
        }
        fields.sampleRaw = level * 255
        fields.sampleSmth = level * 255
        if let spectrum {
            fields.channels = (0..<SpectrumSummary.channelCount).map { Self.byte(spectrum.channels[$0]) }
            fields.magnitude = Self.unit(spectrum.peakLevel) * Self.fullMagnitude
            fields.majorPeak = spectrum.peakFrequency.isFinite ? max(0, spectrum.peakFrequency) : 0
        }
        return fields
    }

    /// 0…1 (NaN to 0): values come from analysis, so they are checked, not trusted.
    private static func unit(_ value: Float) -> Float {
        value.isFinite ? min(1, max(0, value)) : 0
    }

    private static func byte(_ value: Float) -> UInt8 {
        UInt8((unit(value) * 255).rounded())
    }
}

extension LightScene {
    /// `lights test` on a WLED audio sync output: `channel` of the GEQ at full height, the peak at its centre,
    /// full volume, and a beat as the step begins.
    static func audioSyncTest(channel: Int) -> LightScene {
        var summary = SpectrumSummary(peakFrequency: Float(SpectrumSummary.centre(of: channel)), peakLevel: 1)
        summary.channels[min(SpectrumSummary.channelCount - 1, max(0, channel))] = 1
        summary.lastBassOnset = Double(channel)
        var scene = LightScene(levels: BandLevels(bass: 1, mid: 1, treble: 1), colors: [.white, .white, .white], background: 0)
        scene.spectrum = summary
        return scene
    }
}
