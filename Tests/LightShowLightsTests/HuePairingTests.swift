import Foundation
import LightShowCore
import Testing
import TestSupport
@testable import LightShowLights

/// The stored pairing: checked on the way in, written atomically with mode 0600, read back whole.
@Suite struct HuePairingTests {
    static let good = HuePairing(
        applicationKey: "Ab-1_x", clientKeyHex: "00112233445566778899AABBCCDDEEFF", applicationID: "8a3c2f1e-0000-4b1a-9c2d-1234567890ab",
        certificateSHA256: String(repeating: "ab", count: 32)
    )

    @Test func valuesFromABridgeAreChecked() throws {
        let pairing = try #require(Self.good)
        #expect(pairing.clientKey == [0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0xFF])
        let sha = String(repeating: "ab", count: 32)
        #expect(HuePairing(applicationKey: "key\r\nX-Evil: 1", clientKeyHex: "00112233445566778899aabbccddeeff", applicationID: "id", certificateSHA256: sha) == nil)
        #expect(HuePairing(applicationKey: "key", clientKeyHex: "0011", applicationID: "id", certificateSHA256: sha) == nil)
        #expect(HuePairing(applicationKey: "key", clientKeyHex: "zz112233445566778899aabbccddeeff", applicationID: "id", certificateSHA256: sha) == nil)
        #expect(HuePairing(applicationKey: "key", clientKeyHex: "00112233445566778899aabbccddeeff", applicationID: "", certificateSHA256: sha) == nil)
    }

    @Test func storedWithMode0600AndReadBack() throws {
        let directory = try TemporaryDirectory("ls-hue-pairing")
        let store = HuePairingStore(stateDirectory: directory.path + "/state")
        let pairing = try #require(Self.good)
        #expect(try store.load(host: "192.168.1.30", port: 443) == nil)
        try store.save(pairing, host: "192.168.1.30", port: 443)
        let path = store.path(host: "192.168.1.30", port: 443)
        #expect(path == directory.path + "/state/hue/192.168.1.30_443.json")
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(try store.load(host: "192.168.1.30", port: 443) == pairing)
        // Pairing again replaces the file.
        var second = pairing
        second.applicationKey = "another"
        try store.save(second, host: "192.168.1.30", port: 443)
        #expect(try store.load(host: "192.168.1.30", port: 443)?.applicationKey == "another")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path + "/state/hue") == ["192.168.1.30_443.json"])
        // Something else in its place is an error naming the file and what to do.
        try Data("{}".utf8).write(to: URL(fileURLWithPath: path))
        #expect { try store.load(host: "192.168.1.30", port: 443) } throws: { error in
            "\(error)".contains(path) && "\(error)".contains("pair-hue 192.168.1.30")
        }
        #expect(store.path(host: "fe80::1", port: 443).hasSuffix("/hue/fe80__1_443.json"))
    }
}
