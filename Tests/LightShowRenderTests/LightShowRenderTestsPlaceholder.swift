import Testing

// Tests for LightShowRender live beside this file.
@Suite struct LightShowRenderTestsModule {
    @Test func moduleBuilds() { #expect(Bool(true)) }
}
