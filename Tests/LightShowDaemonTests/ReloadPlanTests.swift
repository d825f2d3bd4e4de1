import LightShowCore
import Testing
@testable import LightShowDaemon

/// What a reload does, decided from the running configuration and the new one.
@Suite struct ReloadPlanTests {
    @Test func theSameConfigurationChangesNothingButTheTuning() {
        let plan = ReloadPlan(from: Configuration(), to: Configuration())
        #expect(!plan.restartsInput && !plan.publishesScene && !plan.controlWaitsForRestart)
    }

    @Test func anotherInputOrPlayerReopensTheInput() {
        var input = Configuration()
        input.input.source = .fifo(path: "/run/mpd.fifo")
        #expect(ReloadPlan(from: Configuration(), to: input).restartsInput)
        var mpd = Configuration()
        mpd.mpd.address = "192.0.2.1:6600"
        #expect(ReloadPlan(from: Configuration(), to: mpd).restartsInput)
    }

    @Test func bandsRetuneTheRunningShowAndRedrawTheScene() {
        var bands = Configuration()
        bands.bands.treble.range = FrequencyRange(lower: 5_000, upper: 12_000)
        let plan = ReloadPlan(from: Configuration(), to: bands)
        #expect(!plan.restartsInput && plan.publishesScene && !plan.controlWaitsForRestart)
    }

    @Test func playbackAndAnalysisOnlyRetune() {
        var settings = Configuration()
        settings.playback.pausedDim = 0.2
        settings.analysis.silenceThresholdDBFS = -50
        let plan = ReloadPlan(from: Configuration(), to: settings)
        #expect(!plan.restartsInput && !plan.publishesScene && !plan.controlWaitsForRestart)
    }

    @Test func controlChangesWaitForARestart() {
        var control = Configuration()
        control.control.maxClients += 1
        let plan = ReloadPlan(from: Configuration(), to: control)
        #expect(plan.controlWaitsForRestart)
        #expect(!plan.restartsInput)
    }

    @Test func mqttChangesWaitForARestartAndBrightnessRedrawsTheScene() {
        var mqtt = Configuration()
        mqtt.mqtt.broker = "mqtt.lan"
        let plan = ReloadPlan(from: Configuration(), to: mqtt)
        #expect(plan.mqttWaitsForRestart && !plan.restartsInput && !plan.publishesScene)
        var dimmer = Configuration()
        dimmer.scene.brightness = 0.5
        #expect(ReloadPlan(from: Configuration(), to: dimmer).publishesScene)
    }
}
