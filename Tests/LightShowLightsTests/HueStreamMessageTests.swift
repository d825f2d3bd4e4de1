import LightShowCore
import Testing
@testable import LightShowLights

/// HueStream 2.0 byte for byte, the area list a bridge sends (hostile input) and bands by channel position.
@Suite struct HueStreamMessageTests {
    static let areaID = "1a8d99cc-967b-44f2-9202-43f976c0fa6b"

    @Test func messageFieldByField() {
        let message = HueStreamMessage.encode(
            areaID: Array(Self.areaID.utf8), sequence: 7,
            channels: [.init(id: 0, red: 0xFFFF, green: 0x0102, blue: 0), .init(id: 5, red: 0, green: 0, blue: 0x8081)]
        )
        var expected = Array("HueStream".utf8)
        expected += [0x02, 0x00] // version 2.0
        expected += [0x07] // sequence
        expected += [0x00, 0x00] // reserved
        expected += [0x00] // colour space: RGB
        expected += [0x00] // reserved
        expected += Array(Self.areaID.utf8)
        expected += [0x00, 0xFF, 0xFF, 0x01, 0x02, 0x00, 0x00]
        expected += [0x05, 0x00, 0x00, 0x00, 0x00, 0x80, 0x81]
        #expect(message == expected)
        #expect(message.count == 52 + 2 * 7)
    }

    static let reply = """
    {"errors":[],"data":[
     {"id":"\(areaID)","type":"entertainment_configuration","metadata":{"name":"Living\\u001b[2J room"},
      "status":"inactive","channels":[
        {"channel_id":0,"position":{"x":-0.8,"y":0.5,"z":0}},
        {"channel_id":1,"position":{"x":0.1,"y":1,"z":0.2}},
        {"channel_id":2,"position":{"x":0.9,"y":-0.4,"z":0}},
        {"channel_id":3.5,"position":{"x":0,"y":0,"z":0}},
        {"channel_id":4,"position":{"x":1e308,"y":"left","z":-7}}]},
     {"id":"too-short","metadata":{"name":"Broken"}},
     {"id":"2b8d99cc-967b-44f2-9202-43f976c0fa6b","metadata":{"name":"Kitchen"},"status":"active",
      "active_streamer":{"rid":"other-app","rtype":"auth_v1"},"channels":[]}
    ]}
    """

    @Test func areasFromABridgeReplyAreChecked() throws {
        let areas = try HueEntertainmentArea.list(from: Array(Self.reply.utf8))
        try #require(areas.count == 2)
        let living = areas[0]
        #expect(living.id == Self.areaID && living.name == "Living[2J room" && living.activeStreamer == nil)
        #expect(living.channels.map(\.id) == [0, 1, 2, 4], "a channel id that isn't a whole number is left out")
        #expect(living.channels[3].x == 1 && living.channels[3].y == 0 && living.channels[3].z == -1, "positions clamped")
        #expect(areas[1].name == "Kitchen" && areas[1].activeStreamer == "other-app")
        #expect(HueEntertainmentArea.named("Kitchen", in: areas)?.id == areas[1].id)
        #expect(HueEntertainmentArea.named(Self.areaID.uppercased(), in: areas)?.name == living.name)
        #expect(HueEntertainmentArea.named("Garden", in: areas) == nil)
        #expect(throws: HueBridgeError.self) { try HueEntertainmentArea.list(from: Array("[1,2".utf8)) }
        #expect(throws: HueBridgeError.self) { try HueEntertainmentArea.list(from: Array("{\"errors\":[]}".utf8)) }
    }

    @Test func channelsFollowBandsLeftToRightUnlessNamed() throws {
        let living = try #require(try HueEntertainmentArea.list(from: Array(Self.reply.utf8)).first)
        let bands = living.channels.map { HueEntertainmentArea.band(of: $0, overrides: [:]) }
        #expect(bands == [.bass, .mid, .treble, .treble])
        let chosen = living.channels.map { HueEntertainmentArea.band(of: $0, overrides: [1: .bass, 4: .mid]) }
        #expect(chosen == [.bass, .bass, .treble, .mid])
        #expect(living.describe()[1] == "  channel 0 at (-0.80, 0.50, 0.00) -> bass")
    }
}
