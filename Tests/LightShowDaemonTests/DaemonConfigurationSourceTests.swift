import Foundation
import LightShowCore
import LightShowDaemon
import Testing
import TestSupport

/// The daemon's config: the file over the defaults, command-line overrides over the file, on every (re)load.
@Suite struct DaemonConfigurationSourceTests {
    @Test func flagsOverrideTheFileOnEveryLoad() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("lightshow.toml", Data("[input]\nsource = \"demo\"\n[mpd]\naddress = \"localhost:6600\"\n[bands.bass]\nupper = 180\n".utf8))
        let plain = DaemonConfigurationSource(file: file)
        var warnings: [String] = []
        let fromFile = try plain.load { warnings.append($0) }
        #expect(fromFile.input.source == .demo)
        #expect(fromFile.mpd.address == "localhost:6600")
        #expect(fromFile.bands.bass.range.upper == 180)
        #expect(warnings.isEmpty)

        let overridden = DaemonConfigurationSource(file: file, input: .alsa(device: "pulse"), mpdAddress: "")
        let configuration = try overridden.load { _ in }
        #expect(configuration.input.source == .alsa(device: "pulse"))
        #expect(configuration.mpd.address == "")
        #expect(configuration.bands.bass.range.upper == 180)
    }

    @Test func aBadFileListsEveryErrorAndNoFileMeansDefaults() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("bad.toml", Data("[bands.bass]\nupper = 30000\n[bands.mid]\ncolor = \"green\"\nbogus = 1\n".utf8))
        var warnings: [String] = []
        #expect {
            try DaemonConfigurationSource(file: file).load { warnings.append($0) }
        } throws: { error in
            let text = "\(error)"
            return text.contains("bands.bass.upper") && text.contains("bands.mid.color")
                && (error as? any UserFacingError)?.exitStatus == .config
        }
        #expect(try DaemonConfigurationSource(file: nil).load { _ in } == Configuration.defaults)
    }
}
