import LightShowMQTT
import Testing

@Suite struct LatestValueStoreTests {
    @Test func aFloodOnOneKeyKeepsOnlyTheNewestValue() {
        var store = LatestValueStore<Int>(capacity: 4)
        for value in 0..<10_000 { store.set("a", value) }
        store.set("b", 1)
        let pending = store.takePending()
        #expect(pending.map(\.key) == ["a", "b"])
        #expect(pending.map(\.value) == [9_999, 1])
        #expect(store.takePending().isEmpty, "taken values are not pending again")
    }

    @Test func aFullStoreRefusesNewKeysButUpdatesKnownOnes() {
        var store = LatestValueStore<Int>(capacity: 2)
        let first = store.set("a", 1), second = store.set("b", 2)
        let third = store.set("c", 3)
        let update = store.set("a", 4)
        #expect(first && second)
        #expect(!third)
        #expect(update)
        #expect(store.value("c") == nil && store.value("a") == 4)
    }

    @Test func markAllPendingSendsEverythingAgainInFirstSetOrder() {
        var store = LatestValueStore<String>(capacity: 8)
        store.set("config", "x")
        store.set("state", "ON")
        _ = store.takePending()
        store.set("state", "OFF")
        #expect(store.takePending().map(\.key) == ["state"])
        store.markAllPending()
        #expect(store.takePending().map { "\($0.key)=\($0.value)" } == ["config=x", "state=OFF"])
    }

    @Test func drainEmptiesTheStore() {
        var store = LatestValueStore<Int>(capacity: 8)
        store.set("b", 1)
        store.set("a", 2)
        #expect(store.drain().map(\.key) == ["b", "a"])
        #expect(store.isEmpty && !store.hasPending)
    }
}
