import Foundation
import Logging
import Testing
import TestSupport
@testable import LightShowLights

/// The sACN CID: made once, stored in the state directory, the same on every later start.
@Suite struct ComponentIdentifierTests {
    let logger = Logger(label: "test")

    @Test func isARandomVersion4UUID() {
        let a = ComponentIdentifier.random(), b = ComponentIdentifier.random()
        #expect(a != b)
        #expect(a.bytes[6] >> 4 == 4 && a.bytes[8] >> 6 == 2)
        #expect(ComponentIdentifier(text: a.description) == a)
        #expect(a.description.count == 36)
    }

    @Test func isStoredOnceAndReadBack() throws {
        let directory = try TemporaryDirectory()
        let state = directory.path + "/state/lightshow" // missing directories are made
        let first = ComponentIdentifier.persistent(in: state, logger: logger)
        let second = ComponentIdentifier.persistent(in: state, logger: logger)
        #expect(first == second)
        let text = try String(contentsOfFile: state + "/cid", encoding: .utf8)
        #expect(text == first.description + "\n")
        let mode = try FileManager.default.attributesOfItem(atPath: state + "/cid")[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: state) == ["cid"]) // no temporary left behind
    }

    @Test func aSymlinkIsNeitherFollowedNorWritten() throws {
        let directory = try TemporaryDirectory()
        let target = directory.file("elsewhere")
        try FileManager.default.createSymbolicLink(atPath: directory.file("cid"), withDestinationPath: target)
        let cid = ComponentIdentifier.persistent(in: directory.path, logger: logger)
        #expect(cid.bytes.count == 16)
        #expect(!FileManager.default.fileExists(atPath: target))
        #expect(ComponentIdentifier.persistent(in: directory.path, logger: logger) != cid) // in memory only
    }

    @Test func garbageInTheFileIsNotTrusted() throws {
        let directory = try TemporaryDirectory()
        try directory.write("cid", Data("not a uuid at all, and rather long for one: \(String(repeating: "x", count: 100))".utf8))
        let a = ComponentIdentifier.persistent(in: directory.path, logger: logger)
        let b = ComponentIdentifier.persistent(in: directory.path, logger: logger)
        #expect(a != b)
        #expect(ComponentIdentifier(text: "0123456789abcdef0123456789abcdef") == nil) // no dashes: not the canonical form
        #expect(ComponentIdentifier(text: "zz234567-89ab-cdef-0123-456789abcdef") == nil)
    }

    @Test func stateDirectoryFollowsSystemdThenXDG() {
        #expect(LightsStateDirectory.path(environment: ["STATE_DIRECTORY": "/var/lib/lightshow:/x", "XDG_STATE_HOME": "/s"]) == "/var/lib/lightshow")
        #expect(LightsStateDirectory.path(environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"]) == "/s/lightshow")
        #expect(LightsStateDirectory.path(environment: ["XDG_STATE_HOME": "relative", "HOME": "/h"]) == "/h/.local/state/lightshow")
        #expect(LightsStateDirectory.path(environment: [:]) == nil)
    }
}
