import LightShowAnalysis
import LightShowCore
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite struct EnvelopeTests {
    @Test func attackReachesSixtyThreePercentAfterOneTimeConstant() {
        var envelope = Envelope(attackMilliseconds: 20, releaseMilliseconds: 200)
        for _ in 0..<20 { envelope.step(toward: 1, dt: 0.001) }
        #expect(abs(envelope.value - (1 - exp(-1))) < 1e-9)
    }

    @Test func releaseUsesItsOwnTimeConstant() {
        var envelope = Envelope(attackMilliseconds: 20, releaseMilliseconds: 200, initial: 1)
        envelope.step(toward: 0, dt: 0.2)
        #expect(abs(envelope.value - exp(-1)) < 1e-9)
    }

    @Test func stepResponseIsTheSameAtAnyFrameRate() {
        // A target that steps at times both rates sample: the curves meet exactly at the shared instants.
        func run(fps: Double) -> [Double] {
            var envelope = Envelope(attackMilliseconds: 12, releaseMilliseconds: 180)
            let frames = Int(fps)
            return (1...frames).map { index in
                let time = Double(index) / fps
                return envelope.step(toward: time <= 0.5 ? 0.9 : 0.1, dt: 1 / fps)
            }
        }
        let at30 = run(fps: 30), at60 = run(fps: 60), at240 = run(fps: 240)
        for index in at30.indices {
            #expect(abs(at30[index] - at60[index * 2 + 1]) < 1e-9)
            #expect(abs(at30[index] - at240[index * 8 + 7]) < 1e-9)
        }
    }

    @Test func zeroTimeConstantFollowsAtOnce() {
        var envelope = Envelope(attackMilliseconds: 0, releaseMilliseconds: 0)
        do { let value = envelope.step(toward: 0.7, dt: 0.01); #expect(value == 0.7) }
        do { let value = envelope.step(toward: 0.2, dt: 0.01); #expect(value == 0.2) }
    }
}

@Suite struct SilenceGateTests {
    @Test func opensAtOnceAndClosesAfterTheHold() {
        var gate = SilenceGate(thresholdDBFS: -60, holdMilliseconds: 250)
        do { let open = gate.update(rmsDBFS: -70, dt: 0.01); #expect(!open) }
        do { let open = gate.update(rmsDBFS: -20, dt: 0.01); #expect(open) }
        for _ in 0..<24 { do { let open = gate.update(rmsDBFS: -80, dt: 0.01); #expect(open) } }
        do { let open = gate.update(rmsDBFS: -80, dt: 0.01); #expect(!open) }
    }

    @Test func soundDuringTheHoldRestartsIt() {
        var gate = SilenceGate(thresholdDBFS: -60, holdMilliseconds: 100)
        gate.update(rmsDBFS: -10, dt: 0.01)
        for _ in 0..<8 { gate.update(rmsDBFS: -90, dt: 0.01) }
        gate.update(rmsDBFS: -30, dt: 0.01)
        for _ in 0..<9 { do { let open = gate.update(rmsDBFS: -90, dt: 0.01); #expect(open) } }
        do { let open = gate.update(rmsDBFS: -90, dt: 0.01); #expect(!open) }
    }

    @Test func ditherBelowTheThresholdNeverOpensIt() {
        var gate = SilenceGate(thresholdDBFS: -60, holdMilliseconds: 250)
        // 16-bit TPDF dither sits near −96 dBFS; hiss at −70 dBFS is still silence.
        for level in [-96.0, -85, -70, -60.5] { do { let open = gate.update(rmsDBFS: level, dt: 0.016); #expect(!open) } }
    }
}

@Suite struct AutomaticGainTests {
    func gain() -> AutomaticGain {
        AutomaticGain(bandCount: 3, recoveryDBPerSecond: 3, maximumGainDB: 30, bandSpreadDB: 18)
    }

    @Test func ceilingRisesAtOnceAndRecoversAtTheConfiguredRate() {
        var gain = gain()
        gain.update(levelsDB: [-6, -6, -6], dt: 0.01)
        #expect(gain.ceilings == [-6, -6, -6])
        gain.update(levelsDB: [-26, -26, -26], dt: 2)
        #expect(gain.ceilings.allSatisfy { abs($0 + 12) < 1e-9 })
    }

    @Test func boostIsBoundedByMaximumGain() {
        var gain = gain()
        for _ in 0..<100 { gain.update(levelsDB: [-80, -80, -80], dt: 0.1) }
        #expect(gain.ceilings == [-30, -30, -30])
    }

    @Test func aQuietBandStaysWithinTheSpreadOfTheLoudest() {
        var gain = gain()
        for _ in 0..<100 { gain.update(levelsDB: [-6, -70, -70], dt: 0.1) }
        #expect(gain.ceilings[0] == -6)
        #expect(gain.ceilings[1] == -24 && gain.ceilings[2] == -24)
    }

    @Test func steadySignalHoldsTheCeilingSteady() {
        var gain = gain()
        var seen: Set<Double> = []
        for _ in 0..<600 { seen.insert(gain.update(levelsDB: [-12, -20, -28], dt: 1.0 / 60)[0]) }
        #expect(seen == [-12])
    }
}

@Suite struct AlphaMappingTests {
    @Test func mapsTheDynamicRangeLinearlyInDecibels() {
        let mapping = AlphaMapping(dynamicRangeDB: 30)
        #expect(mapping.alpha(levelDB: -10, ceilingDB: -10) == 1)
        #expect(mapping.alpha(levelDB: 0, ceilingDB: -10) == 1)
        #expect(abs(mapping.alpha(levelDB: -25, ceilingDB: -10) - 0.5) < 1e-12)
        #expect(mapping.alpha(levelDB: -40, ceilingDB: -10) == 0)
        #expect(mapping.alpha(levelDB: -200, ceilingDB: -10) == 0)
    }
}

@Suite struct DecibelsTests {
    @Test func conversions() {
        #expect(abs(Decibels.fromAmplitude(0.1) + 20) < 1e-9)
        #expect(abs(Decibels.fromPower(0.001) + 30) < 1e-9)
        #expect(Decibels.fromPower(0) == Decibels.floor)
        // A full-scale sine (mean square ½) is the 0 dB reference for band levels.
        #expect(abs(Decibels.bandLevel(meanSquare: 0.5)) < 1e-12)
        #expect(abs(Decibels.toPower(-10) - 0.1) < 1e-12)
    }
}

@Suite struct HopScheduleTests {
    @Test func fractionalHopsAccumulateExactly() {
        let schedule = HopSchedule(sampleRate: 44_100, framesPerSecond: 60)
        #expect(schedule.boundary(1) == 735)
        #expect(schedule.boundary(60) == 44_100)
        let ntsc = HopSchedule(sampleRate: 48_000, framesPerSecond: 29.97)
        #expect(ntsc.boundary(2997) == 4_800_000)
        #expect(ntsc.boundary(1) == 1601)
    }

    @Test func levelProcessorGatesSilenceToExactZero() {
        var processor = LevelProcessor(settings: AnalysisSettings())
        let loud = processor.process(meanSquares: [0.1, 0.001, 0.0001], rmsDBFS: -10, dt: 1.0 / 60)
        #expect(loud.hasSound && loud.levels.bass > 0)
        var last = loud
        for _ in 0..<120 { last = processor.process(meanSquares: [1e-9, 1e-9, 1e-9], rmsDBFS: -90, dt: 1.0 / 60) }
        #expect(!last.hasSound)
        #expect(last.levels == .zero)
    }
}
