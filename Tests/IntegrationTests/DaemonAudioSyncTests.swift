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

    /// CLOCK_MONOTONIC, nanoseconds: the clock `UDPReceiver` stamps arrivals with.
    static func monotonicNow() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

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
            score.tone([WLEDChannels.centre(channel)], 0.5)
        }
        let kHzStart = score.seconds
        score.tone([1000], 1.0)
        score.silence(0.5)
        var kicks: [Double] = []
        for _ in 0..<4 {
            kicks.append(score.seconds)
            score.kick()
            score.silence(0.3)
        }
        score.silence(0.3)
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
            let window = Self.during(packets, (start + 0.15)...(start + 0.45)).compactMap(\.fft)
            try #require(window.count >= 10, "channel \(channel): \(window.count) packets")
            let means = (0..<16).map { index in Double(window.map { $0[index] }.reduce(0, +)) / Double(window.count) }
            let loudest = means.indices.max { means[$0] < means[$1] }
            #expect(loudest == channel && means[channel] > 200, "channel \(channel) at \(WLEDChannels.centre(channel)) Hz: \(means.map { Int($0) })")
        }
        // 1 kHz is the major peak, within 5%, and the volume is up.
        let kHz = Self.during(packets, (kHzStart + 0.15)...(kHzStart + 0.9))
        #expect(kHz.count >= 20 && kHz.allSatisfy { abs(($0.majorPeak ?? 0) - 1000) <= 50 }, "\(kHz.map { $0.majorPeak ?? 0 })")
        #expect(kHz.allSatisfy { ($0.sampleSmth ?? 0) > 100 && ($0.magnitude ?? 0) > 0 })
        // Every kick beats, each beat held for exactly one packet.
        for kick in kicks {
            let beats = Self.during(packets, kick...(kick + 0.45)).filter { ($0.samplePeak ?? 0) >= 1 }
            #expect(beats.count == 1, "kick at \(kick) s: \(beats.count) packets with samplePeak")
        }
        // A held chord, loud and with a bass note, never beats once it sounds.
        let chord = Self.during(packets, (chordStart + 0.3)...chordEnd)
        #expect(chord.count > 80 && chord.allSatisfy { $0.samplePeak == 0 }, "\(chord.map { $0.samplePeak ?? -1 })")
        #expect(chord.allSatisfy { ($0.sampleSmth ?? 0) > 100 })
        // The counter advances by one every packet and wraps.
        let counters = packets.compactMap(\.counter)
        #expect(zip(counters, counters.dropFirst()).allSatisfy { $1 == ($0 + 1) % 256 }, "\(counters)")
        #expect(counters.contains(255) && counters.contains(0))
    }

    @Test func pausedSendsTheDimmedLevelsAndStopSendsZerosForASecondThenNothing() async throws {
        let receiver = try UDPReceiver()
        let directory = try TemporaryDirectory("ls-wled-stop")
        let file = try directory.write("lightshow.toml", Data(Self.config("address = \"127.0.0.1\"\nport = \(receiver.port)").utf8))
        let daemon = try DaemonProcess(["--config", file, "--player", "none", "--fps", "60"], directory: directory)
        #expect(await daemon.waitForSocket(), "\(daemon.log)")
        // Playing: 50 packets a second of the demo's sound.
        let playing = await OffPool.until(timeout: 30) { receiver.collect(timeout: 0.2).count >= 150 }
        #expect(playing, "\(daemon.log)")
        let pause = try await daemon.ctl(["pause"])
        #expect(pause.status == 0, "\(pause.stderr)")
        let pausedAt = Self.monotonicNow()
        _ = await OffPool.until(timeout: 5) { receiver.collect(timeout: 0.1).last.map { $0.time > pausedAt + 1_500_000_000 } ?? false }
        let stop = try await daemon.ctl(["stop"])
        #expect(stop.status == 0, "\(stop.stderr)")
        let stoppedAt = Self.monotonicNow()
        // Nothing for 1.5 s after the zeros: the stream ended.
        let ended = await OffPool.until(timeout: 15) {
            let before = receiver.collect(timeout: 0).count
            return receiver.collect(timeout: 1.5).count == before && Self.monotonicNow() > stoppedAt + 1_500_000_000
        }
        #expect(ended, "still sending after the stop")
        let all = receiver.collect(timeout: 0)
        let packets = try WLEDSyncDecoder.decode(all.map { (Double($0.time) / 1e9, $0.bytes) })
        let seconds = { (time: UInt64) in Double(time) / 1e9 }

        let live = packets.filter { $0.time < seconds(pausedAt) }
        let intervals = zip(live.dropFirst(), live).map { $0.time - $1.time }.sorted()
        try #require(intervals.count > 100, "\(intervals.count) intervals while playing")
        #expect(abs(intervals[intervals.count / 2] - 0.02) < 0.003, "median interval \(intervals[intervals.count / 2])")
        #expect(live.contains { ($0.sampleSmth ?? 0) > 0 && ($0.fft ?? []).contains { $0 > 0 } })
        // Paused: the held picture at the paused dim, still 50 packets a second, counter running.
        let paused = packets.filter { $0.time > seconds(pausedAt) + 0.3 && $0.time < seconds(stoppedAt) }
        try #require(paused.count > 40, "\(paused.count) packets while paused")
        let first = try #require(paused.first)
        #expect(paused.allSatisfy { $0.sampleSmth == first.sampleSmth && $0.fft == first.fft && $0.samplePeak == 0 })
        let loudest = live.compactMap(\.sampleSmth).max() ?? 0
        #expect((first.sampleSmth ?? 0) > 0 && (first.sampleSmth ?? 0) <= loudest * 0.36, "paused \(first.sampleSmth ?? 0) of \(loudest)")
        // Stopped: zeros for about a second, then nothing.
        let after = packets.filter { $0.time > seconds(stoppedAt) }
        let zeros = after.drop { !$0.isSilent }
        try #require(!zeros.isEmpty, "no zeros after the stop")
        #expect(zeros.allSatisfy { $0.isSilent })
        let span = (zeros.last?.time ?? 0) - (zeros.first?.time ?? 0)
        #expect((0.9...1.2).contains(span) && (45...55).contains(zeros.count), "\(zeros.count) zero packets over \(span) s")
        let counters = packets.compactMap(\.counter)
        #expect(zip(counters, counters.dropFirst()).allSatisfy { $1 == ($0 + 1) % 256 })
        daemon.send(signal: SIGTERM)
        #expect(await daemon.waitForExit(timeout: 10) == 0, "\(daemon.log)")
    }

    @Test func multicastsToWLEDsGroupOnTheChosenInterface() async throws {
        let namespace = try NetworkNamespace(prefix: "lswled")
        let ns = ["-n", namespace.name]
        try ExternalTool.run("ip", ns + ["link", "add", "v0", "type", "veth", "peer", "name", "v1"])
        try ExternalTool.run("ip", ns + ["addr", "add", "10.231.0.1/24", "dev", "v0"])
        try ExternalTool.run("ip", ns + ["addr", "add", "10.231.0.2/24", "dev", "v1"])
        try ExternalTool.run("ip", ns + ["link", "set", "v0", "up"])
        try ExternalTool.run("ip", ns + ["link", "set", "v1", "up"])
        try ExternalTool.run("ip", ns + ["route", "add", "239.0.0.0/8", "dev", "v0"])
        let directory = try TemporaryDirectory("ls-wled-multicast")
        let script = try directory.write("receive.py", Data(WLEDSyncDecoder.receiverScript.utf8))
        let received = directory.file("received.txt")
        // Joined on v0's address: a sender on the same host gets its own multicast back there.
        let receiver = try namespace.start(["/usr/bin/python3", script, "10.231.0.1", "11988", "239.0.0.1", "6"], output: received)
        defer { receiver.terminate() }
        #expect(Wait.until(timeout: 10) { ((try? String(contentsOfFile: received, encoding: .utf8)) ?? "").contains("ready") })
        // Only the defaults and the interface: WLED's group and port.
        let file = try directory.write("lightshow.toml", Data(Self.config("interface = \"10.231.0.1\"").utf8))
        let daemon = try DaemonProcess(
            ["--config", file, "--player", "none", "--fps", "60"], directory: directory, launcher: namespace.command
        )
        #expect(await OffPool.until(timeout: 20) { !receiver.isRunning }, "the receiver ran its 6 s")
        daemon.send(signal: SIGTERM)
        _ = await daemon.waitForExit(timeout: 10)
        let lines = ((try? String(contentsOfFile: received, encoding: .utf8)) ?? "").split(separator: "\n").filter { $0 != "ready" }
        let packets = try WLEDSyncDecoder.decode(lines: lines.joined(separator: "\n") + "\n")
        #expect(packets.count > 50, "\(packets.count) packets: \(daemon.log)")
        #expect(packets.allSatisfy { $0.size == 44 && $0.header == "00002\u{0}" })
        #expect(packets.contains { ($0.sampleSmth ?? 0) > 0 })
    }

    @Test func lightsTestSweepsTheChannelsWithAPeakEachAndListNamesIt() async throws {
        let receiver = try UDPReceiver()
        let directory = try TemporaryDirectory("ls-wled-test")
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

        let run = try await LightshowProcess.runDetached(["lights", "test", "--config", file, "--step", "200ms"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("shelf GEQ channel 8 (1120-1421 Hz): full, peak at 1262 Hz, beat"), "\(run.stdout)")
        let datagrams = receiver.collect(timeout: 3) { WLEDSyncDecoder.silentTail($0.map(\.bytes)) >= 50 }
        let packets = try WLEDSyncDecoder.decode(datagrams.map { (Double($0.time) / 1e9, $0.bytes) })
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
        // One beat a step, in the step's first packet.
        let beats = packets.filter { $0.samplePeak == 1 }.compactMap { $0.fft?.firstIndex(of: 255) }
        #expect(beats == Array(0..<16), "\(beats)")
    }
}

/// WLED's GEQ channel centres (geometric), from its edges, written out here rather than taken from our code.
enum WLEDChannels {
    static let edges: [Double] = [43, 86, 129, 216, 301, 430, 560, 818, 1120, 1421, 1895, 2412, 3015, 3704, 4479, 7106, 9259]
    static func centre(_ channel: Int) -> Double { (edges[channel] * edges[channel + 1]).squareRoot() }
}

extension WLEDSyncDecoder {
    /// How many packets at the end of `datagrams` are silent (header and counter aside).
    static func silentTail(_ datagrams: [[UInt8]]) -> Int {
        datagrams.reversed().prefix { $0.count == 44 && $0[8..<17].allSatisfy { $0 == 0 } && $0[18...].allSatisfy { $0 == 0 } }.count
    }
}
