import Foundation
import LightShowControl
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The daemon as a WLED audio sync sender, each packet decoded by Python's `struct` as WLED lays it out: tones
/// through a fifo light their GEQ channels, a 1 kHz tone is the major peak, kicks beat and a held chord doesn't,
/// the counter runs on, a stop sends zeros for a second then nothing; unicast to 127.0.0.1 and multicast to a
/// receiver in a network namespace the test makes.
@Suite struct DaemonAudioSyncTests {
    static let rate = 44_100.0

    /// Raw s16le stereo at 44.1 kHz (what `--input fifo:` reads) built from mono pieces.
    struct Score {
        var mono: [Float] = []
        var seconds: Double { Double(mono.count) / DaemonAudioSyncTests.rate }

        mutating func silence(_ seconds: Double) {
            mono += [Float](repeating: 0, count: Int(seconds * DaemonAudioSyncTests.rate))
        }

        /// Sines summed, 5 ms (or `fadeIn`) in and 5 ms out.
        mutating func tone(_ frequencies: [Double], _ seconds: Double, amplitude: Float = 0.3, fadeIn: Double = 0.005) {
            let count = Int(seconds * DaemonAudioSyncTests.rate)
            let rise = fadeIn * DaemonAudioSyncTests.rate, fall = 0.005 * DaemonAudioSyncTests.rate
            for n in 0..<count {
                let gain = min(1, Double(n) / rise, Double(count - n) / fall)
                let value = frequencies.reduce(0.0) { $0 + sin(2 * Double.pi * $1 * Double(n) / DaemonAudioSyncTests.rate) }
                mono.append(amplitude * Float(gain * value / Double(frequencies.count)))
            }
        }

        /// A kick drum: 60 Hz falling away over about 60 ms, 0.2 s long.
        mutating func kick() {
            let count = Int(0.2 * DaemonAudioSyncTests.rate)
            for n in 0..<count {
                let t = Double(n) / DaemonAudioSyncTests.rate
                mono.append(Float(0.8 * exp(-t / 0.06) * sin(2 * Double.pi * 60 * t)))
            }
        }

        var bytes: Data {
            var data = Data(capacity: mono.count * 4)
            for sample in mono {
                let value = Int16(max(-32767, min(32767, (sample * 32767).rounded())))
                withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0); data.append(contentsOf: $0) }
            }
            return data
        }
    }

    static func config(_ destination: String, fps: Int = 50, extra: String = "") -> String {
        """
        [input]
        source = "demo"

        [[lights]]
        protocol = "wled-sync"
        \(destination)
        fps = \(fps)
        \(extra)

        """
    }

    /// CLOCK_MONOTONIC, nanoseconds: the clock the receiver stamps arrivals with.
    static func monotonicNow() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    static func seconds(_ nanoseconds: UInt64) -> Double { Double(nanoseconds) / 1e9 }

    static func during(_ packets: [WLEDSyncDecoder.Packet], _ range: ClosedRange<Double>) -> [WLEDSyncDecoder.Packet] {
        packets.filter { range.contains($0.time) }
    }

    @Test func tonesPeaksKicksAndAChordThroughTheDaemon() async throws {
        let directory = try TemporaryDirectory("ls-wled-sync")
        var score = Score()
        score.silence(0.5)
        var channelStarts: [Double] = []
        for channel in 0..<16 {
            channelStarts.append(score.seconds)
            score.tone([WLEDChannels.centre(channel)], 1.0)
        }
        let kHzStart = score.seconds
        score.tone([1000], 1.5)
        score.silence(0.5)
        let kicksStart = score.seconds
        for _ in 0..<4 {
            score.kick()
            score.silence(0.4)
        }
        score.silence(0.2)
        let chordStart = score.seconds
        score.tone([131, 262, 330, 392], 2.5, amplitude: 0.5, fadeIn: 0.15)
        let chordEnd = score.seconds
        score.silence(0.3)

        let audio = try directory.write("score.raw", score.bytes)
        let fifo = directory.file("audio.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let peer = try WLEDSyncPeer(audio: audio, fifo: fifo, tail: 0.5, directory: directory)
        let file = try directory.write("lightshow.toml", Data(Self.config("address = \"127.0.0.1\"\nport = \(peer.port)").utf8))
        let daemon = try DaemonProcess(
            ["--config", file, "--input", "fifo:\(fifo)", "--player", "none", "--fps", "60"], directory: directory
        )
        let decoded = try await peer.packets(timeout: score.seconds + 30)
        daemon.send(signal: SIGTERM)
        _ = await daemon.waitForExit(timeout: 10)
        let packets = try #require(decoded, "\(daemon.log)")
        try #require(packets.count > Int(score.seconds * 40), "\(packets.count) packets in \(score.seconds) s: \(daemon.log)")
        #expect(packets.allSatisfy { $0.size == 44 && $0.header == "00002\u{0}" })

        // Each tone lights its own channel most, near the top (the GEQ's own gain).
        for (channel, start) in channelStarts.enumerated() {
            // The second half of the tone: past the analysis' window and any lag of a loaded machine, before the
            // next tone.
            let window = Self.during(packets, (start + 0.5)...(start + 0.95)).compactMap(\.fft)
            try #require(window.count >= 3, "channel \(channel): \(window.count) packets")
            let means = (0..<16).map { index in Double(window.map { $0[index] }.reduce(0, +)) / Double(window.count) }
            let loudest = means.indices.max { means[$0] < means[$1] }
            #expect(loudest == channel && means[channel] > 180, "channel \(channel) at \(WLEDChannels.centre(channel)) Hz: \(means.map { Int($0) })")
        }
        // 1 kHz is the major peak, within 5%, and the volume is up.
        let kHz = Self.during(packets, (kHzStart + 0.5)...(kHzStart + 1.45))
        #expect(kHz.count >= 10 && kHz.allSatisfy { abs(($0.majorPeak ?? 0) - 1000) <= 50 }, "\(kHz.map { $0.majorPeak ?? 0 })")
        #expect(kHz.allSatisfy { ($0.sampleSmth ?? 0) > 100 && ($0.magnitude ?? 0) > 0 })
        // Every kick beats, each beat held for exactly one packet; nothing else in the silence between.
        let kickPackets = Self.during(packets, kicksStart...(chordStart - 0.05))
        let beats = kickPackets.indices.filter { (kickPackets[$0].samplePeak ?? 0) >= 1 }
        #expect(beats.count == 4, "\(beats.count) packets with samplePeak for 4 kicks")
        #expect(zip(beats, beats.dropFirst()).allSatisfy { $1 - $0 > 1 }, "a beat held past one packet: \(beats)")
        // A held chord, loud and with a bass note, never beats once it sounds.
        let chord = Self.during(packets, (chordStart + 0.45)...chordEnd)
        #expect(chord.count > 40 && chord.allSatisfy { $0.samplePeak == 0 }, "\(chord.map { $0.samplePeak ?? -1 })")
        #expect(chord.allSatisfy { ($0.sampleSmth ?? 0) > 100 })
        // The counter advances by one every packet and wraps.
        let counters = packets.compactMap(\.counter)
        #expect(zip(counters, counters.dropFirst()).allSatisfy { $1 == ($0 + 1) % 256 }, "\(counters)")
        #expect(counters.contains(255) && counters.contains(0))
    }

    @Test func pausedSendsTheDimmedLevelsAndStopSendsZerosForASecondThenNothing() async throws {
        let directory = try TemporaryDirectory("ls-wled-stop")
        let receiver = try WLEDSyncReceiver(seconds: 40, directory: directory)
        let file = try directory.write("lightshow.toml", Data(Self.config("address = \"127.0.0.1\"\nport = \(receiver.port)").utf8))
        let daemon = try DaemonProcess(["--config", file, "--player", "none", "--fps", "60"], directory: directory)
        #expect(await daemon.waitForSocket(), "\(daemon.log)")
        // Playing: 50 packets a second of the demo's sound.
        #expect(await OffPool.until(timeout: 30) { receiver.count >= 150 }, "\(daemon.log)")
        let pause = try await daemon.ctl(["pause"])
        #expect(pause.status == 0, "\(pause.stderr)")
        let pausedAt = Self.seconds(Self.monotonicNow())
        // Two seconds of the held picture, dimmed.
        #expect(await OffPool.until(timeout: 15) { ((try? receiver.packets()) ?? []).last.map { $0.time > pausedAt + 2 } ?? false })
        let stoppedAt = Self.seconds(Self.monotonicNow())
        let stop = try await daemon.ctl(["stop"])
        #expect(stop.status == 0, "\(stop.stderr)")
        // Then nothing: 1.5 s without a packet once the zeros are out.
        let ended = await OffPool.until(timeout: 15) {
            let packets = (try? receiver.packets()) ?? []
            return Self.seconds(Self.monotonicNow()) - (packets.last?.time ?? 0) > 1.5 && (packets.last?.time ?? 0) > stoppedAt
        }
        #expect(ended, "still sending after the stop")
        let packets = try receiver.packets()
        daemon.send(signal: SIGTERM)
        #expect(await daemon.waitForExit(timeout: 10) == 0, "\(daemon.log)")

        let live = packets.filter { $0.time < pausedAt - 0.5 }
        try #require(live.count > 100, "\(live.count) packets while playing")
        #expect(live.contains { ($0.sampleSmth ?? 0) > 0 && ($0.fft ?? []).contains { $0 > 0 } })
        // Paused: the held picture at the paused dim, still 50 packets a second, counter running.
        let paused = packets.filter { $0.time > pausedAt + 0.3 && $0.time < stoppedAt }
        try #require(paused.count > 40, "\(paused.count) packets while paused")
        // 50 a second (on a 2-core machine under load a wake-up can come a period late and lose one).
        let rate = Double(paused.count - 1) / ((paused.last?.time ?? 0) - (paused.first?.time ?? 0))
        #expect((45...52).contains(rate), "\(rate) packets a second")
        let first = try #require(paused.first)
        #expect(paused.allSatisfy { $0.sampleSmth == first.sampleSmth && $0.fft == first.fft && $0.samplePeak == 0 },
                "\(paused.map { ($0.sampleSmth ?? -1, $0.samplePeak ?? -1, $0.fft ?? []) })")
        let loudest = live.compactMap(\.sampleSmth).max() ?? 0
        #expect((first.sampleSmth ?? 0) > 0 && (first.sampleSmth ?? 0) <= loudest * 0.36, "paused \(first.sampleSmth ?? 0) of \(loudest)")
        // Stopped: zeros for about a second, then nothing.
        let zeros = packets.filter { $0.time > stoppedAt }.drop { !$0.isSilent }
        try #require(!zeros.isEmpty, "no zeros after the stop")
        #expect(zeros.allSatisfy { $0.isSilent })
        let span = (zeros.last?.time ?? 0) - (zeros.first?.time ?? 0)
        #expect((0.9...1.2).contains(span) && (45...55).contains(zeros.count), "\(zeros.count) zero packets over \(span) s")
        let counters = packets.compactMap(\.counter)
        #expect(zip(counters, counters.dropFirst()).allSatisfy { $1 == ($0 + 1) % 256 })
    }

    @Test func multicastsToWLEDsGroupOnTheChosenInterface() async throws {
        let namespace = try NetworkNamespace(prefix: "lswled")
        try namespace.addMulticastLink()
        let directory = try TemporaryDirectory("ls-wled-multicast")
        // Joined on v0's address: a sender on the same host gets its own multicast back there.
        let receiver = try WLEDSyncReceiver(
            seconds: 8, address: "10.231.0.1", port: 11988, group: "239.0.0.1", directory: directory, launcher: namespace.command
        )
        // Only the defaults and the interface: WLED's group and port.
        let file = try directory.write("lightshow.toml", Data(Self.config("interface = \"10.231.0.1\"").utf8))
        let daemon = try DaemonProcess(
            ["--config", file, "--player", "none", "--fps", "60"], directory: directory, launcher: namespace.command
        )
        #expect(await receiver.finish(timeout: 20), "the receiver ran its 8 s")
        daemon.send(signal: SIGTERM)
        _ = await daemon.waitForExit(timeout: 10)
        let packets = try receiver.packets()
        #expect(packets.count > 50, "\(packets.count) packets: \(daemon.log)")
        #expect(packets.allSatisfy { $0.size == 44 && $0.header == "00002\u{0}" })
        #expect(packets.contains { ($0.sampleSmth ?? 0) > 0 })
    }

    @Test func lightsTestSweepsTheChannelsWithAPeakEachAndListNamesIt() async throws {
        let directory = try TemporaryDirectory("ls-wled-test")
        let receiver = try WLEDSyncReceiver(seconds: 30, directory: directory)
        let file = try directory.write("lights.toml", Data("""
            [[lights]]
            protocol = "wled-sync"
            address = "127.0.0.1"
            port = \(receiver.port)
            name = "shelf"

            """.utf8))
        let list = try await LightshowProcess.runDetached(["lights", "test", "--list", "--config", file])
        #expect(list.status == 0 && list.stdout == "shelf: wled-sync 127.0.0.1:\(receiver.port), 16-channel GEQ, 50 fps\n", "\(list.stdout)")
        let defaults = try directory.write("defaults.toml", Data("[[lights]]\nprotocol = \"wled-sync\"\n".utf8))
        let listed = try await LightshowProcess.runDetached(["lights", "test", "--list", "--config", defaults])
        #expect(listed.stdout == "lights[1]: wled-sync 239.0.0.1:11988 (multicast), 16-channel GEQ, 50 fps\n", "\(listed.stdout)")
        let check = try await LightshowProcess.runDetached(["config", "check", "--config", file])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")

        let run = try await LightshowProcess.runDetached(["lights", "test", "--config", file, "--step", "400ms"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("shelf GEQ channel 8 (1120-1421 Hz): full, peak at 1262 Hz, beat"), "\(run.stdout)")
        // The zeros of the end are out by the time the command returns.
        let packets = try receiver.packets()
        // What the device shows, in order, without repeats: each channel alone at full height, its peak at its
        // centre, then zeros.
        var shown: [String] = []
        for packet in packets {
            let fft = packet.fft ?? []
            let text = packet.isSilent ? "zeros" : "\(fft.indices.filter { fft[$0] > 0 }) \(Int((packet.majorPeak ?? 0).rounded()))"
            if shown.last != text { shown.append(text) }
        }
        let expected = (0..<16).map { "[\($0)] \(Int(WLEDChannels.centre($0).rounded()))" } + ["zeros"]
        #expect(shown == expected, "\(shown)")
        // One beat a step, in the step's first packet; a second of zeros at the end.
        let beats = packets.filter { $0.samplePeak == 1 }.compactMap { $0.fft?.firstIndex(of: 255) }
        #expect(beats == Array(0..<16), "\(beats): \(packets.prefix(4).map { ($0.counter ?? -1, $0.samplePeak ?? -1, $0.fft ?? []) })")
        #expect(packets.reversed().prefix { $0.isSilent }.count >= 45)
    }
}

/// WLED's GEQ channel centres (geometric), from its edges, written out here rather than taken from our code.
enum WLEDChannels {
    static let edges: [Double] = [43, 86, 129, 216, 301, 430, 560, 818, 1120, 1421, 1895, 2412, 3015, 3704, 4479, 7106, 9259]
    static func centre(_ channel: Int) -> Double { (edges[channel] * edges[channel + 1]).squareRoot() }
}
