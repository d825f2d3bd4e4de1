import Foundation
import LightShowCore
import Testing
import TestSupport
@testable import LightShowConfig

@Suite struct ConfigFileTests {
    @Test func missingFileIsNotFoundWithExit66() throws {
        let dir = try TemporaryDirectory()
        #expect(throws: ConfigurationError(file: dir.file("none.toml"), reason: .notFound)) {
            _ = try ConfigurationLoader.read(file: dir.file("none.toml"))
        }
        #expect(ConfigurationError(file: "x", reason: .notFound).exitStatus == .noInput)
    }

    @Test func directoryIsUnreadable() throws {
        let dir = try TemporaryDirectory()
        do {
            _ = try ConfigurationLoader.read(file: dir.path)
            Issue.record("a directory was read as a config file")
        } catch {
            #expect(error.reason == .unreadable("not a regular file"))
            #expect(error.exitStatus == .noInput)
        }
    }

    @Test func invalidUTF8IsAConfigError() throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write("bad.toml", Data([0x61, 0x20, 0x3D, 0x20, 0x22, 0xFF, 0xFE, 0x22]))
        do {
            _ = try ConfigurationLoader.read(file: path)
            Issue.record("invalid UTF-8 was accepted")
        } catch {
            #expect(error.exitStatus == .config)
            #expect(error.description == "\(path): error: not valid UTF-8 text")
        }
    }

    @Test func loadThrowsEveryErrorAndPassesWarningsOn() throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write("c.toml", Data("[scene]\nmargin = 2\ntoolbar_height = -1\nmargn = 0\n".utf8))
        var warnings: [String] = []
        do {
            _ = try ConfigurationLoader.load(file: path) { warnings.append($0) }
            Issue.record("an invalid file loaded")
        } catch {
            #expect(error.exitStatus == .config)
            #expect(error.description == """
            \(path):2: error: scene.margin: 2 is above the maximum 0.25
            \(path):3: error: scene.toolbar_height: -1 is below the minimum 0
            """)
        }
        #expect(warnings == [#"\#(path):4: warning: scene.margn: unknown key; did you mean "margin"?"#])
    }

    @Test func loadReturnsTheFileOverTheDefaults() throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write("c.toml", Data("[background]\nangle = 90\n".utf8))
        let configuration = try ConfigurationLoader.load(file: path) { _ in Issue.record("unexpected warning") }
        var expected = Configuration.defaults
        expected.background.angle = 90
        #expect(configuration == expected)
    }
}

@Suite struct ConfigurationLocatorTests {
    @Test func xdgConfigHomeComesFirstThenEtc() {
        let locator = ConfigurationLocator(environment: ["XDG_CONFIG_HOME": "/x", "HOME": "/home/u"], systemPath: "/etc/l.toml")
        #expect(locator.candidates == ["/x/lightshow/lightshow.toml", "/etc/l.toml"])
    }

    @Test func homeConfigWhenXDGIsUnsetOrRelative() {
        for environment in [["HOME": "/home/u"], ["HOME": "/home/u", "XDG_CONFIG_HOME": "rel"]] {
            let locator = ConfigurationLocator(environment: environment, systemPath: "/etc/l.toml")
            #expect(locator.candidates == ["/home/u/.config/lightshow/lightshow.toml", "/etc/l.toml"])
        }
    }

    @Test func locatesTheFirstFilePresent() throws {
        let dir = try TemporaryDirectory()
        let system = try dir.write("system.toml", Data())
        let xdg = dir.file("xdg")
        let locator = ConfigurationLocator(environment: ["XDG_CONFIG_HOME": xdg], systemPath: system)
        #expect(locator.locate(explicit: nil) == system)
        try FileManager.default.createDirectory(atPath: xdg + "/lightshow", withIntermediateDirectories: true)
        let user = try dir.write("xdg/lightshow/lightshow.toml", Data())
        #expect(locator.locate(explicit: nil) == user)
        #expect(locator.locate(explicit: "/given.toml") == "/given.toml")
    }

    @Test func noFileMeansBuiltInDefaults() throws {
        let dir = try TemporaryDirectory()
        let locator = ConfigurationLocator(environment: ["XDG_CONFIG_HOME": dir.path], systemPath: dir.file("none.toml"))
        #expect(locator.locate(explicit: nil) == nil)
    }
}
