import Foundation
@testable import LightShowConfig
import LightShowSystem
import Testing
import TestSupport

@Suite struct TOMLDocumentTests {
    /// Resident kB of this process (/proc/self/statm counts 4 KiB pages).
    private func residentKB() throws -> Int {
        let statm = try #require(try SmallFile(path: "/proc/self/statm").read(limit: 256, followingSymlinks: true))
        let fields = String(decoding: statm, as: UTF8.self).split(separator: " ")
        return try #require(Int(fields[1])) * 4
    }

    /// Parsing the shipped config again and again keeps next to nothing (measured 0.1-0.3 KB a parse): TOMLKit
    /// alone keeps every node of every document it parses and a copy of every value read, about 10 KB a parse of
    /// this file; freeing only the document left 1.4 KB.
    @Test func parsingFreesTheDocumentsNodes() throws {
        let text = try String(contentsOfFile: PackagePaths.file("config/lightshow.toml"), encoding: .utf8)
        for _ in 0..<50 { _ = ConfigurationLoader.parse(text) }
        let parses = 1000
        let before = try residentKB()
        for _ in 0..<parses { _ = ConfigurationLoader.parse(text) }
        let grown = try residentKB() - before
        #expect(grown * 1024 / parses < 512, "\(grown) kB more resident after \(parses) parses")
    }
}
