import Foundation
import LightShowCore
import LightShowSystem
import Logging
import Synchronization
import Testing
import TestSupport
@testable import LightShowLights

/// LightsOutputs sending DDP to a receiver socket on 127.0.0.1: what a WLED controller would get.
@Suite struct DDPOutputTests {
    let receiver: UDPReceiver

    init() throws {
        receiver = try UDPReceiver()
    }

    func strip(_ pixels: Int, start: Int = 1) -> LightOutputSettings {
        var settings = LightOutputSettings(protocol: .ddp)
        settings.address = "127.0.0.1"
        settings.port = receiver.port
        settings.pixels = pixels
        settings.start = start
        settings.gamma = 1
        return settings
    }

    func outputs(_ settings: [LightOutputSettings], bands: BandsSettings = BandsSettings()) throws -> LightsOutputs {
        try LightsOutputs(settings: settings, bands: bands, background: BackgroundSettings(), stateDirectory: nil, logger: Logger(label: "test"))
    }

    func frame(_ levels: BandLevels, _ state: PlaybackState = .playing, index: Int = 0) -> ShowFrame {
        ShowFrame(index: index, time: 0, levels: levels, state: state, title: "")
    }

    @Test func a150PixelStripIsOnePushedPacketWithEachBandOnItsThird() throws {
        let lights = try outputs([strip(150, start: 11)])
        defer { lights.shutdown() }
        lights.show(frame(BandLevels(bass: 1, mid: 0.5, treble: 0)))
        let datagrams = receiver.collect(timeout: 5) { !$0.isEmpty }
        let packet = try #require(datagrams.first.flatMap { DDPDatagram($0.bytes) })
        #expect(packet.push)
        #expect(packet.dataType == 0x0B && packet.destination == 1)
        #expect(packet.offset == 30) // pixel 11 is byte 30
        #expect(packet.data.count == 450)
        let red = RGBColor.defaultColor(for: .bass), green = RGBColor.defaultColor(for: .mid)
        #expect(Array(packet.data[0..<3]) == [red.red, red.green, red.blue])
        #expect(Array(packet.data[147..<150]) == [red.red, red.green, red.blue])
        let half = green.composited(over: .black, alpha: 0.5)
        #expect(Array(packet.data[150..<153]) == [half.red, half.green, half.blue])
        #expect(packet.data[300..<450].allSatisfy { $0 == 0 })
    }

    @Test(arguments: [600, 300, 1000])
    func longStripsSpanPacketsWithPushOnlyOnTheLast(pixels: Int) throws {
        let lights = try outputs([strip(pixels)])
        defer { lights.shutdown() }
        lights.show(frame(BandLevels(bass: 1, mid: 1, treble: 1)))
        let expectedPackets = (pixels * 3 + 1439) / 1440
        let datagrams = receiver.collect(timeout: 5) { $0.count >= expectedPackets }
        let packets = datagrams.prefix(expectedPackets).compactMap { DDPDatagram($0.bytes) }
        try #require(packets.count == expectedPackets)
        #expect(packets.map(\.push) == Array(repeating: false, count: expectedPackets - 1) + [true])
        #expect(packets.map(\.offset) == (0..<expectedPackets).map { $0 * 1440 })
        #expect(packets.map(\.data.count).reduce(0, +) == pixels * 3)
        #expect(packets.dropLast().allSatisfy { $0.data.count == 1440 })
        #expect(Set(packets.map(\.sequence)).count == 1) // one frame, one sequence number
        let frames = ddpFrames(Array(datagrams.prefix(expectedPackets)))
        #expect(frames.count == 1 && frames[0].pixels.count == pixels)
    }

    @Test func sequenceNumbersCountOneToFifteenPerFrame() throws {
        let lights = try outputs([strip(3)])
        defer { lights.shutdown() }
        for index in 0..<40 {
            lights.show(frame(BandLevels(bass: Float(index % 2)), index: index))
            receiver.collect(timeout: 5) { $0.count > index }
        }
        let sequences = receiver.collect(timeout: 0).compactMap { DDPDatagram($0.bytes)?.sequence }
        #expect(sequences.prefix(17) == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 1, 2])
    }

    @Test func unchangedDataIsResentAboutOnceASecond() throws {
        let lights = try outputs([strip(3)])
        defer { lights.shutdown() }
        lights.show(frame(BandLevels(bass: 1)))
        let datagrams = receiver.collect(timeout: 5) { $0.count >= 3 }
        try #require(datagrams.count >= 3)
        let intervals = zip(datagrams.dropFirst(), datagrams).map { Double($0.time - $1.time) / 1e9 }
        #expect(intervals.prefix(2).allSatisfy { (0.9...1.3).contains($0) }, "intervals \(intervals)")
        #expect(Set(datagrams.map { DDPDatagram($0.bytes)?.data ?? [] }).count == 1)
    }

    @Test func aStopFollowsTheFadeThenSendsBlackAndFallsSilent() throws {
        let lights = try outputs([strip(6)])
        defer { lights.shutdown() }
        lights.show(frame(BandLevels(bass: 1, mid: 1, treble: 1)))
        receiver.collect(timeout: 5) { !$0.isEmpty }
        #expect(Wait.until(timeout: 5) { lights.status.first?.isSending == true })
        for (index, level) in [Float(0.6), 0.3, 0].enumerated() {
            lights.show(frame(BandLevels(bass: level, mid: level, treble: level), .stopped, index: index + 1))
            receiver.collect(timeout: 5) { ($0.last.flatMap { DDPDatagram($0.bytes)?.data.first }).map { $0 < 255 } ?? false }
        }
        #expect(Wait.until(timeout: 5) { lights.status.first?.isSending == false })
        let sent = receiver.collect(timeout: 0).count
        let turns = lights.senderTurns
        // Ended: nothing more, not even the once-a-second resend, and no timer wakes the sender thread.
        let later = receiver.collect(timeout: 1.5)
        #expect(later.count == sent)
        #expect(lights.senderTurns == turns)
        let tail = later.suffix(3).compactMap { DDPDatagram($0.bytes)?.data }
        #expect(tail == Array(repeating: [UInt8](repeating: 0, count: 18), count: 3))
        // Playing again lights it at once.
        lights.show(frame(BandLevels(bass: 1), .playing, index: 9))
        #expect(receiver.collect(timeout: 5) { $0.count > sent }.count > sent)
    }

    @Test func pausedHoldsTheFramesDimmedLevelsAndKeepsThemAlive() throws {
        let lights = try outputs([strip(3)])
        defer { lights.shutdown() }
        lights.show(frame(BandLevels(bass: 0.35), .paused))
        let datagrams = receiver.collect(timeout: 5) { $0.count >= 2 }
        let red = RGBColor.defaultColor(for: .bass).composited(over: .black, alpha: Double(Float(0.35)))
        #expect(datagrams.prefix(2).allSatisfy { DDPDatagram($0.bytes)?.data.prefix(3) == [red.red, red.green, red.blue][...] })
        #expect(lights.status.first?.isSending == true)
    }

    @Test func framesThatStopComingEndAPlayingShowButNotAPausedOne() throws {
        let short: UInt64 = 300_000_000
        let lights = try LightsOutputs(
            settings: [strip(3)], bands: BandsSettings(), background: BackgroundSettings(), stateDirectory: nil,
            logger: Logger(label: "test"), staleAfter: short
        )
        defer { lights.shutdown() }
        // Paused, then nothing more (a paused MPD fifo sends no audio): the held lights stay, kept alive.
        lights.show(frame(BandLevels(bass: 0.35), .paused))
        let held = receiver.collect(timeout: 3) { $0.count >= 2 }
        #expect(held.count >= 2 && held.allSatisfy { DDPDatagram($0.bytes)?.data.first != 0 })
        #expect(lights.status.first?.isSending == true)
        // Playing, then nothing more: the engine is gone; black, then silence.
        lights.show(frame(BandLevels(bass: 1), .playing, index: 1))
        #expect(Wait.until(timeout: 5) { lights.status.first?.isSending == false })
        let all = receiver.collect(timeout: 0.2)
        #expect(all.suffix(3).allSatisfy { DDPDatagram($0.bytes)?.data == [0, 0, 0, 0, 0, 0, 0, 0, 0] })
    }

    @Test func aFailingOutputIsCountedAndTheOthersGoOn() throws {
        var broken = strip(3)
        broken.port = 0 // sendto refuses port 0 (EINVAL) without any packet leaving
        let lights = try outputs([broken, strip(3)])
        defer { lights.shutdown() }
        let statusChanges = Atomic<Int>(0)
        lights.statusChanges.listen { statusChanges.add(1, ordering: .relaxed) }
        for index in 0..<5 {
            lights.show(frame(BandLevels(bass: Float(index) / 5 + 0.1), index: index))
            receiver.collect(timeout: 5) { $0.count > index }
        }
        #expect(receiver.collect(timeout: 0).count >= 5)
        #expect(Wait.until(timeout: 5) { (lights.status.first?.sendErrors ?? 0) >= 5 })
        let status = lights.status
        #expect(status[0].packetsSent == 0 && status[0].lastError?.contains("Invalid argument") == true)
        #expect(status[1].packetsSent >= 5 && status[1].sendErrors == 0 && status[1].lastError == nil)
        #expect(status[1].destination == "ddp 127.0.0.1:\(receiver.port)")
        let summary = LightOutputStatus.summary(status)
        #expect(status[0].isFailing && !status[1].isFailing)
        #expect(summary == "lights 2/2 sending, 1 failing (lights[1]: send to 127.0.0.1:0: Invalid argument)", "\(summary)")
        #expect(LightOutputStatus.summary([]) == "")
        // Both outputs lit and one failing are changes to tell; each further packet or error is not.
        let announced = statusChanges.load(ordering: .relaxed)
        #expect(announced >= 1 && announced <= 3, "\(announced) announcements for \(status[0].sendErrors) errors")
    }

    @Test func reconfigureChangesColoursAndEndsRemovedOutputs() throws {
        let second = try UDPReceiver()
        var other = strip(3)
        other.port = second.port
        let lights = try outputs([strip(3), other])
        defer { lights.shutdown() }
        lights.show(frame(BandLevels(bass: 1, mid: 1, treble: 1)))
        receiver.collect(timeout: 5) { !$0.isEmpty }
        second.collect(timeout: 5) { !$0.isEmpty }
        var configuration = Configuration()
        configuration.bands.bass.color = RGBColor(red: 1, green: 2, blue: 3)
        configuration.lights = [strip(3)]
        try lights.reconfigure(configuration)
        let frames = receiver.collect(timeout: 5) { ddpFrames($0).last?.pixels[0] == [1, 2, 3] }
        #expect(ddpFrames(frames).last?.pixels[0] == [1, 2, 3])
        // The removed output ends its stream with black.
        let removed = second.collect(timeout: 5) { ddpFrames($0).last?.pixels[0] == [0, 0, 0] }
        #expect(ddpFrames(removed).last?.pixels.values.allSatisfy { $0 == [0, 0, 0] } == true)
        #expect(lights.status.count == 1)
    }

    @Test func shutdownSendsBlackAndIsIdempotent() throws {
        let lights = try outputs([strip(3)])
        lights.show(frame(BandLevels(bass: 1, mid: 1, treble: 1)))
        receiver.collect(timeout: 5) { !$0.isEmpty }
        lights.shutdown()
        lights.shutdown()
        let all = receiver.collect(timeout: 0.2)
        #expect(all.suffix(3).allSatisfy { DDPDatagram($0.bytes)?.data == [UInt8](repeating: 0, count: 9) })
        #expect(lights.status.first?.isSending == false)
    }

    @Test func anUnresolvableHostOnReloadKeepsItsOldAddress() throws {
        let previous = try LightOutputPlanner.plans(for: [strip(3)])
        var messages: [String] = []
        let plans = try LightOutputPlanner.replans(for: [strip(3)], previous: previous, resolve: { settings throws(AddressResolutionError) in
            throw AddressResolutionError(host: settings.address, reason: "Name or service not known")
        }) { messages.append($0) }
        #expect(plans.count == 1 && plans[0].destination == previous[0].destination)
        #expect(messages == ["lights[1].address: cannot resolve 127.0.0.1: Name or service not known; keeping 127.0.0.1:\(receiver.port)"])
        var renamed = strip(3)
        renamed.address = "elsewhere"
        let none = try LightOutputPlanner.replans(for: [renamed], previous: previous, resolve: { settings throws(AddressResolutionError) in
            throw AddressResolutionError(host: settings.address, reason: "Name or service not known")
        }) { messages.append($0) }
        #expect(none.isEmpty)
        #expect(messages.last?.hasSuffix("this output stays off until a reload resolves it") == true)
    }

    /// How long from handing a lit frame over to the first packet that shows it: the least of five, since a busy
    /// machine only ever adds wake-up latency to the systematic part.
    func latency(sharedDelay: Double, ownDelay: Double) throws -> Double {
        var settings = strip(3)
        settings.delayMilliseconds = ownDelay
        var shared = OutputSettings()
        shared.delayMilliseconds = sharedDelay
        var samples: [Double] = []
        for _ in 0..<5 {
            let lights = try LightsOutputs(
                settings: [settings], bands: BandsSettings(), background: BackgroundSettings(), output: shared,
                stateDirectory: nil, logger: Logger(label: "test")
            )
            defer { lights.shutdown() }
            receiver.reset()
            let handed = MonotonicClock.now()
            lights.show(frame(BandLevels(bass: 1)))
            let lit = receiver.collect(timeout: 7) { $0.contains { DDPDatagram($0.bytes)?.data.first ?? 0 > 0 } }
                .first { DDPDatagram($0.bytes)?.data.first ?? 0 > 0 }
            let arrived = try #require(lit).time
            samples.append(Double(arrived - handed) / 1e6)
        }
        return samples.min() ?? 0
    }

    /// `[output] delay` plus the output's own `delay` hold the light back by their sum: never less, and no more than
    /// a busy machine's wake-up adds (even the least of five samples can carry a few milliseconds of it); a delay
    /// counted twice, or one of the two left out, would be off by far more.
    @Test func theSyncOffsetMovesTheLightByTheConfiguredDelay() throws {
        let prompt = try latency(sharedDelay: 0, ownDelay: 0)
        let late = try latency(sharedDelay: 200, ownDelay: 50)
        #expect(late >= 250 && late - prompt <= 250 + 15, "no delay \(prompt) ms, 250 ms delay \(late) ms")
        let ownOnly = try latency(sharedDelay: 0, ownDelay: 120)
        #expect(ownOnly >= 120 && ownOnly - prompt <= 120 + 15, "no delay \(prompt) ms, 120 ms delay \(ownOnly) ms")
    }

}
