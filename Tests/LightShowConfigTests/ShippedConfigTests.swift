import Foundation
import LightShowCore
import Testing
import TestSupport
@testable import LightShowConfig

/// config/lightshow.toml must list every key with exactly the built-in default.
@Suite struct ShippedConfigTests {
    let text: String

    init() throws {
        text = try String(contentsOfFile: PackagePaths.file("config/lightshow.toml"), encoding: .utf8)
    }

    @Test func parsesWithoutAnyProblem() {
        let report = ConfigurationLoader.parse(text)
        #expect(report.diagnostics == [])
    }

    @Test func everyValueIsTheBuiltInDefault() {
        // Read over a base that differs everywhere, so a key missing from the file would show.
        let report = ConfigurationLoader.parse(text, over: Self.differentEverywhere)
        #expect(report.configuration == Configuration.defaults)
    }

    /// The file with its commented `[[lights]]` examples uncommented: the lines from each `# [[lights]]` up to the
    /// first line that isn't a comment.
    var textWithExample: String {
        var lines: [String] = []
        var inExample = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "# [[lights]]" { inExample = true }
            if inExample, !line.hasPrefix("# ") { inExample = false }
            lines.append(inExample ? String(line.dropFirst(2)) : String(line))
        }
        return lines.joined(separator: "\n")
    }

    @Test func fileAndLoaderKnowTheSameKeys() {
        let leaves = { (paths: [String]) in
            Set(paths.filter { path in !paths.contains { $0.hasPrefix(path + ".") } })
        }
        let inFile = leaves(KeyLineIndex(text: textWithExample).keyPaths)
        let readByLoader = leaves(ConfigurationLoader.knownKeyPaths(readingAllOf: textWithExample))
        #expect(inFile == readByLoader)
        #expect(inFile.count >= 45)
    }

    @Test func theLightsExampleShowsEveryDefault() throws {
        let report = ConfigurationLoader.parse(textWithExample)
        #expect(report.diagnostics == [])
        var expected = LightOutputSettings(protocol: .sacn)
        // The example's two example values; everything else is the default.
        expected.layout = .strip
        expected.pixels = 30
        expected.gamma = LightOutputSettings.defaultGamma(.sacn, .strip)
        // The Hue example's two required values.
        var hue = LightOutputSettings(protocol: .hue)
        hue.address = "192.168.1.30"
        hue.area = "Living room"
        #expect(report.configuration.lights == [expected, hue])
        #expect(textWithExample.contains("\n[[lights]]\nprotocol = "))
    }

    @Test func everyKeyHasAComment() {
        for line in textWithExample.split(separator: "\n") where line.contains("=") && !line.hasPrefix("#") {
            #expect(line.contains(" # "), "no comment: \(line)")
        }
    }

    /// A configuration with every field changed from its default.
    static var differentEverywhere: Configuration {
        var c = Configuration()
        c.input.source = .demo
        c.input.pcmFormat = PCMFormat(sampleRate: 48_000, encoding: .float32, channels: 1)
        for band in Band.allCases {
            c.bands[band] = .init(range: FrequencyRange(lower: 100, upper: 200), color: .white)
        }
        c.analysis.attackMilliseconds = 1
        c.analysis.releaseMilliseconds = 1
        c.analysis.silenceThresholdDBFS = -1
        c.analysis.silenceHoldMilliseconds = 1
        c.analysis.dynamicRangeDB = 1
        c.analysis.gainRecoveryDBPerSecond = 1
        c.analysis.maximumGainDB = 1
        c.analysis.bandSpreadDB = 1
        c.accents.enabled = false
        c.accents.maxFlashesPerSecond = 1
        c.accents.headroom = 0.3
        for band in Band.allCases {
            c.accents[band].strength = 0.5
            c.accents[band].sensitivity = 3
            c.accents[band].decayMilliseconds = 1
        }
        c.output.delayMilliseconds = 1
        c.background.from = .white
        c.background.to = .white
        c.background.angle = 1
        c.scene.margin = 1
        c.scene.toolbarHeight = 1
        c.scene.brightness = 0.5
        c.playback.idleAfterSeconds = 1
        c.playback.fadeOutSeconds = 100
        c.playback.pausedDim = 1
        c.player.source = .none
        c.mpris.player = "x"
        c.mpd.address = "x"
        c.mpd.password = "x"
        c.control.socket = "x"
        c.control.maxClients = 1
        c.lights = [LightOutputSettings(protocol: .ddp)]
        c.control.idleTimeoutSeconds = 1
        c.mqtt.broker = "x"
        c.mqtt.clientID = "x"
        c.mqtt.username = "x"
        c.mqtt.password = "x"
        c.mqtt.passwordFile = "x"
        c.mqtt.tls = true
        c.mqtt.caFile = "x"
        c.mqtt.discoveryPrefix = "x"
        c.mqtt.baseTopic = "x"
        c.web.listen = "x"
        c.web.token = "x"
        c.web.tokenFile = "x"
        c.web.hosts = ["x"]
        c.web.maxConnections = 1
        c.web.idleTimeoutSeconds = 1
        c.web.requestTimeoutSeconds = 1
        c.web.maxBodyBytes = 1
        return c
    }

    @Test func differentEverywhereReallyDiffersInEveryField() {
        // Guards the test above: if a new field is added, this mirror comparison notices it stayed default.
        let fields = Self.changedLeaves(Mirror(reflecting: Self.differentEverywhere), Mirror(reflecting: Configuration.defaults))
        #expect(fields.unchanged == [], "fields left at their default: \(fields.unchanged)")
    }

    /// Walks two values of the same type; leaves (values with no children) that compare equal are "unchanged".
    static func changedLeaves(_ a: Mirror, _ b: Mirror, path: String = "") -> (unchanged: [String], count: Int) {
        var unchanged: [String] = []
        var count = 0
        for (childA, childB) in zip(a.children, b.children) {
            let name = path + "." + (childA.label ?? "?")
            let mirrorA = Mirror(reflecting: childA.value), mirrorB = Mirror(reflecting: childB.value)
            if mirrorA.children.isEmpty || mirrorA.displayStyle == .enum || childA.value is RGBColor || childA.value is FrequencyRange {
                count += 1
                if String(describing: childA.value) == String(describing: childB.value) { unchanged.append(name) }
            } else {
                let inner = changedLeaves(mirrorA, mirrorB, path: name)
                unchanged += inner.unchanged
                count += inner.count
            }
        }
        return (unchanged, count)
    }
}
