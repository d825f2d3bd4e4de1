import Testing

// Tests for LightShowConfig live beside this file.
@Suite struct LightShowConfigTestsModule {
    @Test func moduleBuilds() { #expect(Bool(true)) }
}
