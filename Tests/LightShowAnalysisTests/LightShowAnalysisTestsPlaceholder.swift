import Testing

// Tests for LightShowAnalysis live beside this file.
@Suite struct LightShowAnalysisTestsModule {
    @Test func moduleBuilds() { #expect(Bool(true)) }
}
