import Foundation
import Testing
import TestSupport

/// `lightshow devices` against the real libasound configuration.
@Suite struct DevicesCommandTests {
    @Test func listsCaptureDevicesAsPasteableNames() throws {
        // A PCM of our own (with a hint) shows up under the name `--input alsa:` takes.
        let device = try ALSAFileDevice(samples: [0, 0], channels: 2)
        let result = try LightshowProcess.run(["devices"], environment: ["ALSA_CONFIG_PATH": device.configPath])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("alsa:testin"))
        #expect(result.stdout.contains("lightshow test input"))
        // Playback-only PCMs are left out; everything listed is pasteable after --input.
        let listed = result.stdout.split(separator: "\n").filter { $0.hasPrefix("  ") }
        #expect(!listed.isEmpty)
        #expect(listed.allSatisfy {
            let name = $0.trimmingCharacters(in: .whitespaces)
            return name.hasPrefix("alsa:") || name.hasPrefix("pulse:")
        })
    }

    @Test func saysPlainlyWhenThereIsNoCard() throws {
        let cards = (try? String(contentsOfFile: "/proc/asound/cards", encoding: .utf8)) ?? ""
        let result = try LightshowProcess.run(["devices"])
        #expect(result.status == 0)
        if cards.isEmpty || cards.contains("no soundcards") {
            #expect(result.stdout.contains("No sound card found"))
        } else {
            #expect(!result.stdout.contains("No sound card found"))
        }
    }
}
