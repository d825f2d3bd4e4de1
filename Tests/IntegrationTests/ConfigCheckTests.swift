import Foundation
import Testing
import TestSupport

/// `lightshow config check` and config discovery, through the real executable.
@Suite struct ConfigCheckTests {
    @Test func shippedConfigIsOK() throws {
        let path = PackagePaths.file("config/lightshow.toml")
        let result = try LightshowProcess.run(["config", "check", path])
        #expect(result.status == 0)
        #expect(result.stdout == "\(path): OK\n")
    }

    @Test(arguments: [
        ("[bands.bass\nlower = 30\n", #":1:12: error: syntax error while parsing table header: expected ']', saw '\n'"#),
        ("[background]\nangle = \"wide\"\n", ":2: error: background.angle: expected a number, found a string"),
        ("[bands.bass]\nupper = 30000\n", ":2: error: bands.bass.upper: 30000 is above the axis maximum 20000"),
        ("[bands.mid]\nlower = 5000\nupper = 3000\n", ":1: error: bands.mid: lower 5000 must be below upper 3000"),
        ("[bands.treble]\ncolor = \"blue\"\n", ##":2: error: bands.treble.color: expected "#RRGGBB", found "blue""##),
    ])
    func badFileExits78WithItsMessage(_ toml: String, _ message: String) throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write("bad.toml", Data(toml.utf8))
        let result = try LightshowProcess.run(["config", "check", path])
        #expect(result.status == 78)
        #expect(result.stdout == "\(path)\(message)\n\(path): 1 error\n")
    }

    @Test func unknownKeyWarnsButPasses() throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write("warn.toml", Data("[bands.bass]\nuper = 200\n".utf8))
        let result = try LightshowProcess.run(["config", "check", path])
        #expect(result.status == 0)
        #expect(result.stdout == """
        \(path):2: warning: bands.bass.uper: unknown key; did you mean "upper"?
        \(path): OK

        """)
    }

    @Test func everyProblemIsPrinted() throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write("many.toml", Data("[scene]\nmargin = 1\ntoolbar_height = \"x\"\nmargn = 0\n".utf8))
        let result = try LightshowProcess.run(["config", "check", path])
        #expect(result.status == 78)
        #expect(result.stdout == """
        \(path):2: error: scene.margin: 1 is above the maximum 0.25
        \(path):3: error: scene.toolbar_height: expected a number, found a string
        \(path):4: warning: scene.margn: unknown key; did you mean "margin"?
        \(path): 2 errors

        """)
    }

    @Test func missingFileExits66() throws {
        let result = try LightshowProcess.run(["config", "check", "/nonexistent/lightshow.toml"])
        #expect(result.status == 66)
        #expect(result.stderr == "lightshow: config file /nonexistent/lightshow.toml: not found\n")
    }

    @Test func missingExplicitConfigExits66() throws {
        let result = try LightshowProcess.run(["config", "check", "--config", "/nonexistent/c.toml"])
        #expect(result.status == 66)
        #expect(result.stderr.contains("/nonexistent/c.toml: not found"))
    }

    @Test func withoutFileChecksTheDiscoveredOne() throws {
        let dir = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir.file("lightshow"), withIntermediateDirectories: true)
        let path = try dir.write("lightshow/lightshow.toml", Data("[control]\nmax_clients = 0\n".utf8))
        let result = try LightshowProcess.run(["config", "check"], environment: ["XDG_CONFIG_HOME": dir.path])
        #expect(result.status == 78)
        #expect(result.stdout.hasPrefix("\(path):2: error: control.max_clients: 0 is below the minimum 1\n"))
    }
}
