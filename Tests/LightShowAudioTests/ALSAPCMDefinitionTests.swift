import Foundation
import LightShowAudio
import LightShowCore
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A PCM name judged from libasound's own configuration, without opening it: names whose chain uses the file,
/// shm or ladspa plugin, or loads a library, are risky; the hardware and null devices are not. Serialized with a
/// configuration of its own in ALSA_CONFIG_PATH (libasound reads it from the environment).
@Suite(.serialized) struct ALSAPCMDefinitionTests {
    static func withConfig<T>(_ text: String, _ body: () throws -> T) throws -> T {
        let directory = try TemporaryDirectory("ls-alsa-definition")
        let path = try directory.write("test.conf", Data(text.utf8))
        let previous = getenv("ALSA_CONFIG_PATH").map { String(cString: $0) }
        setenv("ALSA_CONFIG_PATH", "/usr/share/alsa/alsa.conf:\(path)", 1)
        defer { if let previous { setenv("ALSA_CONFIG_PATH", previous, 1) } else { unsetenv("ALSA_CONFIG_PATH") } }
        return try body()
    }

    @Test func namesThatRunProgramsOrLoadCodeAreRisky() throws {
        let config = """
            pcm.piped { type file slave.pcm "null" file "|touch /nonexistent/x" }
            pcm.wrapped { type plug slave.pcm "piped" }
            pcm.loader { type ladspa slave.pcm "null" path "/tmp" plugins [] }
            pcm.plain { type plug slave.pcm "null" }

            """
        try Self.withConfig(config) {
            #expect(ALSAPCMDefinition.inspect("piped").risk?.contains("file plugin") == true)
            // A risky slave makes its master risky.
            #expect(ALSAPCMDefinition.inspect("wrapped").risk?.contains("file plugin") == true)
            #expect(ALSAPCMDefinition.inspect("wrapped").types.prefix(2) == ["plug", "file"])
            #expect(ALSAPCMDefinition.inspect("loader").risk != nil)
            // ALSA's own file plugin with arguments, as a client would type it.
            #expect(ALSAPCMDefinition.inspect("file:'|touch /nonexistent/x'").risk != nil)
            #expect(ALSAPCMDefinition.inspect("file:/tmp/out").risk != nil)
            #expect(ALSAPCMDefinition.inspect("{type file}").risk != nil)

            let plain = ALSAPCMDefinition.inspect("plain")
            #expect(plain.risk == nil && plain.types == ["plug", "null"], "\(plain)")
            #expect(ALSAPCMDefinition.inspect("null").risk == nil)
            #expect(!ALSAPCMDefinition.inspect("no_such_pcm").isDefined)
            #expect(ALSAPCMDefinition.warning(for: .alsa(device: "piped")) != nil)
            #expect(ALSAPCMDefinition.warning(for: .alsa(device: "null")) == nil)
            #expect(ALSAPCMDefinition.warning(for: .demo) == nil)
        }
    }
}
