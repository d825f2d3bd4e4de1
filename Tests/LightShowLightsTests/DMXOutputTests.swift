import Foundation
import LightShowCore
import Logging
import Testing
import TestSupport
@testable import LightShowLights

/// sACN and Art-Net from LightsOutputs, unicast to a receiver socket on 127.0.0.1: the stream's framing over
/// time (sequence numbers, the end of a stream). The OLA tests check the same against a real receiver.
@Suite struct DMXOutputTests {
    let receiver: UDPReceiver

    init() throws {
        receiver = try UDPReceiver()
    }

    func output(_ networkProtocol: LightOutputSettings.NetworkProtocol, universe: Int) -> LightOutputSettings {
        var settings = LightOutputSettings(protocol: networkProtocol)
        settings.address = "127.0.0.1"
        settings.port = receiver.port
        settings.universe = universe
        return settings
    }

    func outputs(_ settings: [LightOutputSettings], state: String? = nil) throws -> LightsOutputs {
        try LightsOutputs(settings: settings, bands: BandsSettings(), background: BackgroundSettings(), stateDirectory: state, logger: Logger(label: "test"))
    }

    @Test func sacnCountsItsSequenceAndEndsAStopWithThreeTerminatedPackets() throws {
        let directory = try TemporaryDirectory()
        let lights = try outputs([output(.sacn, universe: 7)], state: directory.path)
        defer { lights.shutdown() }
        for (index, level) in [Float(1), 0.5].enumerated() {
            lights.show(ShowFrame(index: index, time: 0, levels: BandLevels(bass: level), state: .playing, title: ""))
            receiver.collect(timeout: 5) { $0.count > index }
        }
        lights.show(ShowFrame(index: 2, time: 0, levels: .zero, state: .stopped, title: ""))
        let packets = receiver.collect(timeout: 5) { $0.count >= 8 }.map(\.bytes)
        try #require(packets.count == 8, "\(packets.count) packets")
        #expect(packets.allSatisfy { $0.count == 126 + 9 }) // channels 1-9 only
        #expect(packets.map { $0[111] } == [0, 1, 2, 3, 4, 5, 6, 7]) // one counter, every packet
        #expect(packets.map { $0[112] } == [0, 0, 0, 0, 0, 0x40, 0x40, 0x40]) // black ×3, then terminated ×3
        #expect(packets.allSatisfy { $0[113] == 0 && $0[114] == 7 })
        #expect(packets[0][126] == 255 && packets[1][126] == 128)
        #expect(packets[2...].allSatisfy { $0[126...].allSatisfy { $0 == 0 } })
        // The CID is the one stored in the state directory.
        let cid = try String(contentsOfFile: directory.file("cid"), encoding: .utf8)
        #expect(ComponentIdentifier(text: cid)?.bytes == Array(packets[0][22..<38]))
        #expect(Array(packets[0][44..<53]) == Array("lightshow".utf8) && packets[0][108] == 100)
        // And then nothing: no keep-alive after the end.
        #expect(receiver.collect(timeout: 1.3).count == 8)
    }

    @Test func artNetSendsItsPortAddressAndSequenceAndNoTermination() throws {
        let lights = try outputs([output(.artnet, universe: 0x0123)])
        defer { lights.shutdown() }
        lights.show(ShowFrame(index: 0, time: 0, levels: BandLevels(treble: 1), state: .playing, title: ""))
        receiver.collect(timeout: 5) { !$0.isEmpty }
        lights.show(ShowFrame(index: 1, time: 0, levels: .zero, state: .stopped, title: ""))
        let packets = receiver.collect(timeout: 5) { $0.count >= 4 }.map(\.bytes)
        try #require(packets.count == 4)
        #expect(packets.map { $0[12] } == [1, 2, 3, 4])
        #expect(packets.allSatisfy { $0[14] == 0x23 && $0[15] == 0x01 && $0.count == 18 + 10 })
        let blue = RGBColor.defaultColor(for: .treble)
        #expect(Array(packets[0][24...26]) == [blue.red, blue.green, blue.blue])
        #expect(packets[1...].allSatisfy { $0[18...].allSatisfy { $0 == 0 } })
        #expect(receiver.collect(timeout: 1.3).count == 4)
    }
}
