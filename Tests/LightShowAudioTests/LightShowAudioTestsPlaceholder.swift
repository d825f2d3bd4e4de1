import Testing

// Tests for LightShowAudio live beside this file.
@Suite struct LightShowAudioTestsModule {
    @Test func moduleBuilds() { #expect(Bool(true)) }
}
