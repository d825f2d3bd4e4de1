import Foundation
import Testing
import TestSupport

/// The daemon's web page in Debian's Chromium, driven through chromedriver by Selenium: Tests/Browser/web_page_test.py
/// starts `lightshow daemon --web` on the demo track and checks what the page draws against `ctl status` (the light
/// pixels, the toolbar after `ctl stop`, a range slider retuning a band, full screen, reconnection after a restart,
/// the token prompt, a hostile title, the help balloons). It prints one JSON line per check; each becomes an
/// expectation here. `LIGHTSHOW_SCREENSHOTS=DIR` keeps a portrait and a landscape screenshot in DIR.
@Suite(.serialized, .tags(.chromium)) struct WebPageBrowserTests {
    struct Report: Decodable {
        var check: String
        var ok: Bool
        var detail: String
    }

    static let checks = [
        "help", "levels", "live", "round", "round-landscape", "toolbar", "slider", "fullscreen", "reconnect", "token", "title",
    ]

    @Test func pageInChromium() async throws {
        let work = try TemporaryDirectory("web-page")
        // Debian's python3 (python3-selenium), not one a version manager put first on the PATH.
        var command = [
            "/usr/bin/python3", PackagePaths.file("Tests/Browser/web_page_test.py"),
            "--lightshow", LightshowProcess.executableURL.path, "--workdir", work.path,
        ]
        if let shots = ProcessInfo.processInfo.environment["LIGHTSHOW_SCREENSHOTS"] { command += ["--screenshots", shots] }
        let script = command
        let result = try await OffPool.run { try Launch.run(script) }
        let reports = result.stdout.split(separator: "\n").compactMap {
            try? JSONDecoder().decode(Report.self, from: Data($0.utf8))
        }
        for failed in reports where !failed.ok && !Self.checks.contains(failed.check) {
            Issue.record("\(failed.check): \(failed.detail)")
        }
        for name in Self.checks {
            let report = reports.first { $0.check == name }
            #expect(report?.ok == true, "\(name): \(report?.detail ?? "not run; stderr: \(result.stderr.suffix(3000))")")
        }
        #expect(result.status == 0, "web_page_test.py exited \(result.status): \(result.stderr.suffix(3000))")
    }
}
