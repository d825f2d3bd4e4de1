import LightShowCore
@testable import LightShowEngine
import LightShowNowPlaying
import Testing

@Suite struct NowPlayingTests {
    @Test func withoutMPDTheInputNamesTheShow() {
        let file = NowPlaying(spec: .file(path: "/music/song.flac"))
        #expect(file.title == "song.flac")
        #expect(file.elapsed(at: 99, audioTime: 12.5) == 12.5)
        let capture = NowPlaying(spec: .alsa(device: "hw:1,0"))
        #expect(capture.title == "hw:1,0")
        #expect(capture.elapsed(at: 99, audioTime: 12.5) == nil)
        #expect(NowPlaying(spec: .demo).title == "Demo")
    }

    @Test func mpdSongAndPositionWinWhileKnown() {
        var now = NowPlaying(spec: .alsa(device: "pulse"))
        now.update(NowPlayingStatus(state: .playing, title: "Song", elapsed: 10, duration: 11), at: 100)
        #expect(now.title == "Song")
        // Elapsed runs on while MPD plays, up to the song's end.
        #expect(now.elapsed(at: 100.5, audioTime: 0) == 10.5)
        #expect(now.elapsed(at: 200, audioTime: 0) == 11)
        now.update(NowPlayingStatus(state: .paused, title: "Song", elapsed: 10.5, duration: 11), at: 101)
        #expect(now.elapsed(at: 150, audioTime: 0) == 10.5)
        // A song without tags or position: the input's title, no elapsed.
        now.update(NowPlayingStatus(state: .stopped), at: 102)
        #expect(now.title == "pulse")
        #expect(now.elapsed(at: 103, audioTime: 0) == nil)
        now.update(nil, at: 104)
        #expect(now.title == "pulse")
    }
}
