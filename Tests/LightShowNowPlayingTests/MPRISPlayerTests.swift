import LightShowCore
@testable import LightShowNowPlaying
import Testing

/// What a player's properties become, whatever types it sends, and which player is followed.
@Suite struct MPRISPlayerTests {
    /// A player whose properties have been read.
    static func player(_ name: String, _ state: PlaybackState, active: UInt64) -> MPRISPlayer {
        var player = MPRISPlayer(busName: MPRISPlayer.namePrefix + name, owner: ":1.\(active)", lastActive: active)
        player.state = state
        player.isKnown = true
        return player
    }

    @Test func wellFormedPropertiesMapToTheStatus() {
        var player = Self.player("mpv", .stopped, active: 1)
        player.apply([
            "PlaybackStatus": .string("Paused"),
            "Metadata": .dictionary([
                "xesam:title": .string("Song"), "xesam:artist": .array([.string("A"), .string("B")]),
                "mpris:length": .integer(90_000_000),
            ]),
            "Position": .integer(30_000_000), "CanControl": .boolean(true),
        ])
        #expect(player.status == NowPlayingStatus(state: .paused, title: "Song", elapsed: 30, duration: 90, canControl: true))
    }

    @Test func withoutATitleTheArtistAndFileNameStandIn() {
        var player = Self.player("vlc", .stopped, active: 1)
        player.apply(["PlaybackStatus": .string("Playing"), "Metadata": .dictionary([
            "xesam:artist": .array([.string("Tests")]), "xesam:url": .string("file:///music/tone.flac"),
            "mpris:length": .unsigned(5_000_000),
        ])])
        #expect(player.status.title == "Tests – tone.flac")
        #expect(player.status.duration == 5)
        #expect(player.status.state == .playing)
    }

    @Test func wrongTypesCountAsUnknown() {
        var player = Self.player("bad", .playing, active: 1)
        player.apply([
            "PlaybackStatus": .integer(1), "CanControl": .string("yes"), "Position": .double(.nan),
            "Metadata": .array([.string("not a dictionary")]),
        ])
        #expect(player.status == NowPlayingStatus(state: .stopped, canControl: false))
        player.apply(["Metadata": .dictionary(["mpris:length": .double(-5), "xesam:title": .integer(3)])])
        #expect(player.status.duration == nil && player.status.title == nil)
    }

    @Test func thePlayingOneWinsElseTheLatestActiveAndAPinIsKept() {
        let old = Self.player("old", .playing, active: 1)
        let newer = Self.player("newer", .paused, active: 5)
        let latest = Self.player("vlc.instance7", .playing, active: 3)
        #expect(MPRISPlayer.choose([old, newer], pinned: nil)?.shortName == "old")
        #expect(MPRISPlayer.choose([old, newer, latest], pinned: nil)?.shortName == "vlc.instance7")
        var paused = old
        paused.state = .paused
        #expect(MPRISPlayer.choose([paused, newer], pinned: nil)?.shortName == "newer")
        #expect(MPRISPlayer.choose([old, newer, latest], pinned: "vlc")?.shortName == "vlc.instance7")
        #expect(MPRISPlayer.choose([old, newer], pinned: "vlc") == nil)
        // One not read yet is never chosen, however recent.
        var unread = MPRISPlayer(busName: MPRISPlayer.namePrefix + "unread", owner: ":1.9", lastActive: 9)
        #expect(MPRISPlayer.choose([paused, unread], pinned: nil)?.shortName == "old")
        unread.apply(["PlaybackStatus": .string("Paused")])
        #expect(MPRISPlayer.choose([paused, unread], pinned: nil)?.shortName == "unread")
    }

    @Test func playerctldIsNotAPlayer() {
        #expect(!MPRISPlayer.isPlayer("org.mpris.MediaPlayer2.playerctld"))
        #expect(!MPRISPlayer.isPlayer("org.mpris.MediaPlayer2."))
        #expect(!MPRISPlayer.isPlayer("org.freedesktop.DBus"))
        #expect(MPRISPlayer.isPlayer("org.mpris.MediaPlayer2.spotify"))
    }
}
