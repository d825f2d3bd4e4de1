import Foundation
import LightShowCore
@testable import LightShowNowPlaying
import Testing
import TestSupport

/// The MPRIS client against real players (mpv with mpv-mpris, a hostile python player) on a private session bus
/// that each test starts. Serialized: the client finds the bus through this process's environment.
@Suite(.serialized, .tags(.dbus, .mpv)) struct MPRISClientTests {
    /// Points this process at `bus` for the length of a test.
    static func use(_ bus: SessionBus?) {
        if let bus { setenv("DBUS_SESSION_BUS_ADDRESS", bus.address, 1) } else { unsetenv("DBUS_SESSION_BUS_ADDRESS") }
    }

    /// A client following the players of `bus` (this process pointed at it), with its events recorded.
    static func follow(_ bus: SessionBus) throws -> (MPRISClient, StreamRecorder<NowPlayingEvent>) {
        use(bus)
        let client = try MPRISClient()
        client.start()
        return (client, StreamRecorder(client.events))
    }

    /// Two tagged tones, `First Tone` and `Second Tone`.
    static func twoTones(in directory: TemporaryDirectory) throws -> (String, String) {
        (try SessionBus.taggedTone(in: directory, title: "First Tone"), try SessionBus.taggedTone(in: directory, title: "Second Tone"))
    }

    static func playing(_ state: PlaybackState, title: String? = nil) -> (NowPlayingEvent) -> Bool {
        { event in
            guard case .status(let status) = event else { return false }
            return status.state == state && (title == nil || status.title == title)
        }
    }

    @Test func followsMPVThroughPauseCommandsAndLeaving() async throws {
        let bus = try SessionBus()
        Self.use(bus)
        defer { Self.use(nil) }
        let directory = try TemporaryDirectory()
        let tone = try SessionBus.taggedTone(in: directory)
        let client = try MPRISClient()
        client.start()
        defer { client.stop() }
        let events = StreamRecorder(client.events)

        let mpv = try bus.startMPV(tone)
        var seen = try await events.first("mpv playing Test Tone", where: Self.playing(.playing, title: "Test Tone"))
        guard case .status(let status) = seen.arrival.element else { return }
        #expect(status.canControl)
        #expect(status.duration.map { abs($0 - 10) < 0.1 } == true, "\(status)")
        #expect(client.name == "MPRIS mpv")

        try bus.playerctl("-p", "mpv", "pause")
        seen = try await events.first("paused", after: seen.index, where: Self.playing(.paused, title: "Test Tone"))

        // The user's commands reach the player as explicit Play and Pause.
        client.forward(.play)
        seen = try await events.first("playing again", after: seen.index, where: Self.playing(.playing))
        #expect(try bus.playerctl("-p", "mpv", "status") == "Playing")
        client.forward(.toggle)
        seen = try await events.first("toggled to paused", after: seen.index, where: Self.playing(.paused))
        #expect(try bus.playerctl("-p", "mpv", "status") == "Paused")

        bus.kill(mpv)
        try await events.first("lost when mpv leaves", after: seen.index) { $0 == .lost("no MPRIS player") }
    }

    @Test func followsMetadataChanges() async throws {
        let bus = try SessionBus()
        let (client, events) = try Self.follow(bus)
        defer { client.stop(); Self.use(nil) }
        let directory = try TemporaryDirectory()
        let (first, second) = try Self.twoTones(in: directory)
        // mpv plays its files in order: `first` (given before the file argument), then `second`.
        try bus.startMPV(second, arguments: ["--loop-file=no", first])
        let seen = try await events.first("first", where: Self.playing(.playing, title: "First Tone"))
        try bus.playerctl("-p", "mpv", "next")
        try await events.first("second", after: seen.index, where: Self.playing(.playing, title: "Second Tone"))
    }

    @Test func thePlayingOneWinsAndAPinnedNameIsKept() async throws {
        let bus = try SessionBus()
        let (client, events) = try Self.follow(bus)
        defer { client.stop(); Self.use(nil) }
        let directory = try TemporaryDirectory()
        let (first, second) = try Self.twoTones(in: directory)

        try bus.startMPV(first)
        var seen = try await events.first("first plays", where: Self.playing(.playing, title: "First Tone"))
        // A second player appears paused: newer, but not playing, so the first stays followed.
        try bus.startMPV(second, arguments: ["--pause"])
        try await waitFor("two players", timeout: 30) { bus.playerNames().count == 2 }
        let secondName = try #require(bus.playerNames().first { $0 != "mpv" })
        try await waitFor("the second paused", timeout: 30) { (try? bus.playerctl("-p", secondName, "status")) == "Paused" }
        // Whatever the client heard while the second started, it settles on the one that plays.
        try await waitFor("following the first", timeout: 30) {
            if case .status(let status)? = events.elements.last { status.title == "First Tone" } else { false }
        }
        #expect(client.name == "MPRIS mpv")
        seen = (events.all.count - 1, events.all[events.all.count - 1])

        // The second starts playing: the latest to start wins; once it pauses, the one still playing is back.
        try bus.playerctl("-p", secondName, "play")
        seen = try await events.first("second plays", after: seen.index, where: Self.playing(.playing, title: "Second Tone"))
        #expect(client.name == "MPRIS \(secondName)")
        try bus.playerctl("-p", secondName, "pause")
        try await events.first("back to first", after: seen.index, where: Self.playing(.playing, title: "First Tone"))

        // Pinned to the second, the first's playing doesn't matter.
        let pinned = try MPRISClient(pinned: secondName)
        pinned.start()
        defer { pinned.stop() }
        let pinnedEvents = StreamRecorder(pinned.events)
        try await pinnedEvents.first("pinned one", where: Self.playing(.paused, title: "Second Tone"))
    }

    @Test func aHostilePlayerIsSurvivedAndFollowedOnceItBehaves() async throws {
        let bus = try SessionBus()
        defer { Self.use(nil) }
        let (client, events) = try Self.follow(bus)
        defer { client.stop() }
        let hostile = try ScriptedPlayer(ScriptedPlayer.hostile, name: "hostile", bus: bus)

        // Wrong types everywhere: a stopped player with a capped, control-free title it can't be told to control.
        let garbage = try await events.first("the hostile player", timeout: 20) { event in
            if case .status(let status) = event { status.title?.contains("pwned") == true } else { false }
        }
        guard case .status(let status) = garbage.arrival.element else { return }
        #expect(status.state == .stopped)
        #expect(!status.canControl)
        #expect(status.elapsed == nil && status.duration == nil)
        let title = status.title ?? ""
        #expect(title.count <= SafeText.maximumCharacters + 1)
        #expect(!title.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        // While the flood goes on, the client still answers: stop/start of the flood is the player's, not ours.
        try hostile.behave(on: bus)
        try await events.first("well-formed at last", after: garbage.index, where: Self.playing(.playing, title: "Fine Now"))
        guard case .status(let fine)? = events.elements.last else { return }
        #expect(fine.canControl && fine.duration == 5)
    }

    /// A player too slow to answer at first is not followed as "stopped" before it has said anything, and a pause it
    /// signals while it is left alone is read once it may be asked again, though it never signals again.
    @Test func aSlowPlayerIsFollowedOnlyOnceKnownAndNoChangeIsLost() async throws {
        let bus = try SessionBus()
        defer { Self.use(nil) }
        let (client, events) = try Self.follow(bus)
        defer { client.stop() }
        let slow = try ScriptedPlayer(ScriptedPlayer.slow, name: "slow", bus: bus)
        defer { withExtendedLifetime(slow) {} }
        try await events.first("the pause it signalled while left alone", timeout: 15,
                               where: Self.playing(.paused, title: "Slow Tone"))
        #expect(!events.elements.contains(where: Self.playing(.stopped)), "followed before it answered: \(events.elements)")
    }

    @Test func withoutASessionBusItSaysSoOnceAndEnds() async throws {
        Self.use(nil)
        let runtime = getenv("XDG_RUNTIME_DIR").map { String(cString: $0) }
        unsetenv("XDG_RUNTIME_DIR")
        defer { if let runtime { setenv("XDG_RUNTIME_DIR", runtime, 1) } }
        let client = try MPRISClient()
        client.start()
        let events = StreamRecorder(client.events)
        try await waitFor("events end", timeout: 30) { events.isFinished }
        #expect(events.elements.isEmpty)
    }

    @Test func thePolicyPrefersAConfiguredMPDThenMPRISOnADesktop() throws {
        var configuration = Configuration.defaults
        #expect(try NowPlayingSources.make(configuration, sessionBusPresent: false) == nil)
        #expect(try NowPlayingSources.make(configuration, sessionBusPresent: true) is MPRISClient)
        configuration.mpd.address = "localhost:6600"
        #expect(try NowPlayingSources.make(configuration, sessionBusPresent: true) is MPDClient)
        configuration.player.source = .mpris
        #expect(try NowPlayingSources.make(configuration, sessionBusPresent: false) is MPRISClient)
        configuration.player.source = .none
        #expect(try NowPlayingSources.make(configuration, sessionBusPresent: true) == nil)
        configuration.player.source = .mpd
        configuration.mpd.address = ""
        #expect(throws: LightShowError.self) { try NowPlayingSources.make(configuration) }
        // A pinned player means MPRIS even where no bus was detected.
        configuration.player.source = .auto
        configuration.mpris.player = "vlc"
        #expect(try NowPlayingSources.make(configuration, sessionBusPresent: false) is MPRISClient)
    }
}
