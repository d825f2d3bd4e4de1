import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Issue 13's examples of hostile files and flags, through the real executable: each ends with a clear message and
/// the documented exit status, never a trap, a segfault, a hang or an allocation the size of the claim.
@Suite struct HostileFileTests {
    static func run(_ arguments: [String]) async throws -> LightshowProcess.Result {
        try await LightshowProcess.runDetached(arguments)
    }

    /// A WAV header claiming `rate` Hz and `channels` channels, with `dataBytes` of silence after it.
    static func wav(rate: UInt32, channels: UInt16, dataBytes: Int) -> Data {
        var data = Data("RIFF".utf8)
        func le<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        le(UInt32(36 + dataBytes))
        data.append(contentsOf: Array("WAVEfmt ".utf8))
        le(UInt32(16)); le(UInt16(1)); le(channels); le(rate)
        le(rate &* UInt32(channels) &* 2); le(channels &* 2); le(UInt16(16))
        data.append(contentsOf: Array("data".utf8))
        le(UInt32(dataBytes))
        data.append(Data(count: dataBytes))
        return data
    }

    @Test func hugeDurationInAConfigIsAnErrorNotATrap() async throws {
        let directory = try TemporaryDirectory("ls-hostile-duration")
        let file = try directory.write("big.toml", Data("[playback]\nidle_after = \"1000000000000000000000000s\"\n".utf8))
        let result = try await Self.run(["config", "check", "--config", file])
        #expect(result.status == 78, "\(result.stderr)")
        #expect((result.stdout + result.stderr).contains("big.toml:2: error: playback.idle_after: 1e+24s is above the maximum"), "\(result.stderr)")
    }

    @Test(arguments: [
        ("key", "a" + String(repeating: ".a", count: 60_000) + " = 1\n", "a key with more than 32 dotted parts"),
        ("table", "[" + String(repeating: "a.", count: 60_000) + "a]\n", "a key with more than 32 dotted parts"),
        ("array", "a = " + String(repeating: "[", count: 50_000) + String(repeating: "]", count: 50_000) + "\n",
         "arrays or tables nested more than 32 deep"),
        ("inline", "a = " + String(repeating: "{b=", count: 20_000) + "1" + String(repeating: "}", count: 20_000) + "\n",
         "arrays or tables nested more than 32 deep"),
        // toml++ asserts on a table header starting outside ASCII (found by the config fuzzer).
        ("unicode", "[bänds]\n", "a character outside ASCII in a key or value"),
        ("control", "a\u{0}b = 1\n", "a control character (U+0000) outside a string"),
        ("header", "[ `a]\n", "a table header without a key"),
    ])
    func configsThatWouldOverflowTheParserAreRefused(name: String, text: String, message: String) async throws {
        let directory = try TemporaryDirectory("ls-hostile-deep")
        let file = try directory.write("\(name).toml", Data(text.utf8))
        let result = try await Self.run(["config", "check", "--config", file])
        #expect(result.status == 78, "\(result.stderr)")
        #expect((result.stdout + result.stderr).contains("\(name).toml:1: error: refused before parsing: \(message)"), "\(result.stderr)")
    }

    /// toml++ aborts on some malformed text (its assertions stay on in release builds); the file is parsed in a
    /// throw-away process first, so only that one dies and the command reports it.
    @Test(arguments: ["a = [[0, 2], }]\n", "x = { a = [1, }\n"])
    func textThatCrashesTheTOMLParserIsAnError(text: String) async throws {
        let directory = try TemporaryDirectory("ls-hostile-tomlpp")
        let file = try directory.write("crash.toml", Data(text.utf8))
        let result = try await Self.run(["config", "check", file])
        #expect(result.status == 78, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("the TOML parser cannot read this file"), "\(result.stdout)\(result.stderr)")
    }

    @Test func aConfigLargerThanTheCapIsRefused() async throws {
        let directory = try TemporaryDirectory("ls-hostile-size")
        let file = try directory.write("big.toml", Data(String(repeating: "# padding\n", count: 120_000).utf8))
        let result = try await Self.run(["config", "check", "--config", file])
        #expect(result.status == 66, "\(result.stderr)")
        #expect((result.stdout + result.stderr).contains("cannot be read (larger than 1024 KiB)"), "\(result.stderr)")
    }

    @Test func aConfigPathThatIsAFifoFailsAtOnce() async throws {
        let directory = try TemporaryDirectory("ls-hostile-fifo-config")
        let path = directory.file("config.fifo")
        #expect(mkfifo(path, 0o600) == 0)
        let started = Date()
        let result = try await Self.run(["config", "check", "--config", path])
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(result.status == 66, "\(result.stderr)")
        #expect((result.stdout + result.stderr).contains("config.fifo: cannot be read (not a regular file)"), "\(result.stderr)")
    }

    @Test(arguments: [
        (["record", "--input", "demo", "--duration", "1e300", "--out", "OUT"], "--duration '1e300'"),
        (["record", "--input", "demo", "--duration", "nan", "--out", "OUT"], "--duration 'nan'"),
        (["ctl", "--timeout", "1e24s", "status"], "--timeout: expected"),
        (["ctl", "--timeout", "99999999999999999999h", "status"], "--timeout: expected"),
        (["watch", "--input", "demo", "--fps", "1e300"], "--fps"),
        (["record", "--input", "demo", "--size", "99999999999999999999x2", "--out", "OUT"], "--size"),
    ])
    func hugeNumbersOnTheCommandLineAreUsageErrors(arguments: [String], message: String) async throws {
        let directory = try TemporaryDirectory("ls-hostile-flags")
        let result = try await Self.run(arguments.map { $0 == "OUT" ? directory.file("out") : $0 })
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test(arguments: [(UInt32(2_147_483_647), UInt16(1024), 2048), (UInt32(1), UInt16(1), 4096), (UInt32(48_000), UInt16(0), 64)])
    func audioFileHeadersGetRawPCMBounds(rate: UInt32, channels: UInt16, dataBytes: Int) async throws {
        let directory = try TemporaryDirectory("ls-hostile-wav")
        let file = try directory.write("claim.wav", Self.wav(rate: rate, channels: channels, dataBytes: dataBytes))
        let result = try await Self.run(["analyze", "--input", file])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains("claim.wav"), "the message names the file: \(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func fileNamesReachTheTerminalWithoutTheirControlCharacters() async throws {
        let directory = try TemporaryDirectory("ls-hostile-name")
        let file = directory.file("x\u{1B}]0;owned\u{07}\u{1B}[2J.wav")
        let result = try await Self.run(["analyze", "--input", file])
        #expect(result.status == 66, "\(result.stderr)")
        #expect(result.stderr.contains("x]0;owned[2J.wav"), "\(result.stderr)")
        #expect(!result.stderr.contains("\u{1B}") && !result.stderr.contains("\u{07}"), "\(result.stderr)")
    }
}
