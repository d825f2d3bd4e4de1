import Testing

// Tests for LightShowDaemon live beside this file.
@Suite struct LightShowDaemonTestsModule {
    @Test func moduleBuilds() { #expect(Bool(true)) }
}
