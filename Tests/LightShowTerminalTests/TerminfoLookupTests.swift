import Foundation
import LightShowTerminal
import Testing
import TestSupport

/// Finding TERM's entry where ncurses does, in the system's real terminfo database and in a private one.
@Suite struct TerminfoLookupTests {
    @Test func xtermErasesToTheBackgroundAndScreenDoesNot() {
        #expect(TerminfoLookup.entry(environment: ["TERM": "xterm", "HOME": "/nonexistent"])?.backColorErase == true)
        #expect(TerminfoLookup.entry(environment: ["TERM": "screen", "HOME": "/nonexistent"])?.backColorErase == false)
    }

    @Test func unsetUnknownOrPathLikeNamesFindNothing() {
        #expect(TerminfoLookup.entry(environment: [:]) == nil)
        #expect(TerminfoLookup.entry(environment: ["TERM": ""]) == nil)
        #expect(TerminfoLookup.entry(environment: ["TERM": "no-such-terminal-\(getpid())"]) == nil)
        #expect(TerminfoLookup.entry(environment: ["TERM": "../x/xterm"]) == nil)
        #expect(TerminfoLookup.entry(environment: ["TERM": ".hidden"]) == nil)
    }

    /// TERMINFO comes before the system directories; a malformed entry there promises nothing.
    @Test func ownDirectoryComesFirst() throws {
        let directory = try TemporaryDirectory("terminfo")
        try FileManager.default.createDirectory(atPath: directory.file("x"), withIntermediateDirectories: true)
        _ = try directory.write("x/xterm", Data("not a terminfo entry".utf8))
        #expect(TerminfoLookup.entry(environment: ["TERM": "xterm", "TERMINFO": directory.path]) == nil)
        let system = try Data(contentsOf: URL(fileURLWithPath: "/lib/terminfo/s/screen"))
        _ = try directory.write("x/xterm", system)
        #expect(TerminfoLookup.entry(environment: ["TERM": "xterm", "TERMINFO": directory.path])?.backColorErase == false)
    }
}
