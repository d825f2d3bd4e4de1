import Foundation
import LightShowCore
import LightShowSystem
import Testing
import TestSupport
@testable import LightShowLights

/// The WLED audio sync v2 packet, decoded by Python's `struct` as WLED lays it out, not by our own encoder.
@Suite struct AudioSyncPacketTests {
    @Test func everyFieldLandsWhereWLEDReadsIt() throws {
        var fields = WLEDSyncPacket.Fields()
        fields.sampleRaw = 200.5
        fields.sampleSmth = 127.25
        fields.samplePeak = 1
        fields.channels = (0..<16).map { UInt8($0 * 16 + 1) }
        fields.magnitude = 765
        fields.majorPeak = 1001.5
        let packet = WLEDSyncPacket.packet(fields, counter: 201)
        #expect(packet.count == 44)
        #expect(Array(packet[6..<8]) == [0, 0] && Array(packet[34..<36]) == [0, 0]) // reserved
        let decoded = try #require(try WLEDSyncDecoder.decode([(time: 0, bytes: packet)]).first)
        #expect(decoded.size == 44 && decoded.header == "00002\u{0}")
        #expect(decoded.sampleRaw == 200.5 && decoded.sampleSmth == 127.25 && decoded.samplePeak == 1)
        #expect(decoded.counter == 201)
        #expect(decoded.fft == (0..<16).map { $0 * 16 + 1 })
        #expect(decoded.magnitude == 765 && decoded.majorPeak == 1001.5)
    }

    @Test func silenceIsAllZeroButTheHeaderAndCounter() throws {
        let body = WLEDSyncPacket.body(WLEDSyncPacket.Fields())
        #expect(body.count == 36 && body.allSatisfy { $0 == 0 })
        let decoded = try WLEDSyncDecoder.decode([(time: 0, bytes: WLEDSyncPacket.packet(body: body, counter: 0))])
        #expect(decoded.first?.isSilent == true && decoded.first?.header == "00002\u{0}")
    }

    @Test func theCounterAdvancesEveryPacketAndWraps() throws {
        var counters = SequenceCounters()
        let key = DestinationKey(networkProtocol: .wledSync, destination: try #require(InternetAddress(ipv4: "127.0.0.1", port: 11988)), universe: 0, area: "")
        let numbers = (0..<300).map { _ in counters.next(for: key) }
        #expect(numbers.prefix(3) == [1, 2, 3])
        #expect(zip(numbers, numbers.dropFirst()).allSatisfy { $1 == $0 &+ 1 })
        #expect(numbers[254] == 255 && numbers[255] == 0)
    }

    @Test func pausedSendsTheHeldSpectrumDimmedAndStoppedSendsZeros() {
        var painter = AudioSyncPainter()
        var playing = LightScene(levels: BandLevels(bass: 0.8), colors: [.white, .white, .white], background: 1)
        var summary = SpectrumSummary(peakFrequency: 440, peakLevel: 1, lastBassOnset: 2.5)
        summary.channels[3] = 1
        summary.channels[4] = 0.5
        playing.spectrum = summary
        let live = painter.fields(playing)
        #expect(live.sampleSmth == 0.8 * 255 && live.channels[3] == 255 && live.channels[4] == 128)
        #expect(live.samplePeak == 1 && live.majorPeak == 440 && live.magnitude == AudioSyncPainter.fullMagnitude)
        // The beat stays until a packet carried it, then is spent.
        #expect(painter.fields(playing).samplePeak == 1)
        painter.sent()
        #expect(painter.fields(playing).samplePeak == 0)
        // Paused at 0.35 of the level: the held spectrum at 0.35, no beat.
        var paused = LightScene(levels: BandLevels(bass: 0.28), colors: [.white, .white, .white], background: 1)
        paused.state = .paused
        let held = painter.fields(paused)
        #expect(held.channels[3] == 89 && held.channels[4] == 45 && held.samplePeak == 0 && held.majorPeak == 440)
        var stopped = playing
        stopped.state = .stopped
        #expect(painter.fields(stopped) == WLEDSyncPacket.Fields())
        #expect(painter.fields(.dark) == WLEDSyncPacket.Fields())
    }
}
