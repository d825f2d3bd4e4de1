import Foundation
import LightShowCore
import Testing
@testable import LightShowConfig

/// The bounds a config text must keep before TOMLKit sees it, and the line index's memory on texts built to
/// blow it up.
@Suite struct ConfigTextLimitsTests {
    @Test func stringsAndCommentsMayHoldWhatKeysMayNot() {
        let text = #"""
            # comments may say anything: a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r.s.t.u.v.w.x.y.z.a.b.c.d.e.f.g.h [[[[
            [mpd]
            password = "a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r.s.t.u.v.w.x.y.z.a.b.c.d.e.f.g.h.i [[[[[[[[[[[[[ ü \" ."
            address = '''
            [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[ .................................... ü
            '''
            "quoted key ü" = 1

            """#
        #expect(ConfigTextLimits().violation(in: text) == nil)
    }

    @Test func aHugeTableHeaderWithManyKeysUnderItIsIndexedInBoundedTime() {
        let header = "[\"" + String(repeating: "k", count: 500_000) + "\"]\n"
        let text = header + String(repeating: "a = 1\n", count: 50_000)
        let started = Date()
        let report = ConfigurationLoader.parse(text)
        #expect(Date().timeIntervalSince(started) < 20, "took \(Date().timeIntervalSince(started)) s")
        #expect(report.hasErrors || !report.warnings.isEmpty)
    }

    @Test func tooManyLinesAreRefused() {
        let text = String(repeating: "\n", count: 100_001)
        #expect(ConfigTextLimits().violation(in: text)?.message == "more than 100000 lines")
    }
}
