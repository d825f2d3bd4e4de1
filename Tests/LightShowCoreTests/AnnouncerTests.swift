import LightShowCore
import Synchronization
import Testing

@Suite struct AnnouncerTests {
    /// Announcements reach the listener of the moment, on the announcing thread; none before or after.
    @Test func announcementsReachTheCurrentListenerOnly() {
        let announcer = Announcer()
        let heard = Atomic<Int>(0)
        announcer.announce()
        announcer.listen { heard.add(1, ordering: .relaxed) }
        announcer.announce()
        announcer.announce()
        #expect(heard.load(ordering: .relaxed) == 2)
        announcer.listen(nil)
        announcer.announce()
        #expect(heard.load(ordering: .relaxed) == 2)
    }
}
