import ArgumentParser
import LightShowCore
import LightShowControl
import LightShowDaemon
import Logging

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

struct DaemonCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "daemon",
        abstract: "Run the light show as a service: capture, analyse, and serve viewers on the control socket.",
        discussion: """
        Speaks sd_notify when started by systemd (Type=notify): READY once capture is open or its retry loop runs, \
        STATUS, WATCHDOG while capture makes progress, RELOADING/READY around a reload, STOPPING at shutdown. \
        SIGHUP or `lightshow ctl reload` reloads the config: a bad file keeps the running one. SIGTERM or SIGINT \
        stops it cleanly.

        Examples:
          lightshow daemon --config /etc/lightshow/lightshow.toml
          lightshow daemon --input demo
          lightshow daemon --input fifo:/tmp/mpd.fifo --mpd localhost:6600
          lightshow daemon --input demo --web 127.0.0.1:8490
        """
    )

    @OptionGroup var global: GlobalOptions

    @OptionGroup var inputFlags: InputOptions

    @OptionGroup var player: PlayerOptions

    @Option(name: .long, help: "Analysis frames per second streamed to subscribers, 1…240.")
    var fps: Double = 60

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Give the control socket to this group (mode 0660), so its members can use ctl and watch --connect; the system unit uses audio.",
            valueName: "GROUP"
        )
    )
    var socketGroup: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Serve the web page, HTTP API and metrics on this address for this run ([web] listen), e.g. \(WebSettings.usualListen).",
            valueName: "ADDRESS"
        )
    )
    var web: String?

    func validate() throws {
        try FrameRate.validate(fps)
        if let web, WebSettings.address(web) == nil {
            throw ValidationError("--web: expected HOST:PORT such as \(WebSettings.usualListen), found '\(SafeText.sanitized(web, limit: 80))'")
        }
    }

    func run() async throws {
        try await reportingUserErrors {
            let player = player
            var source = DaemonConfigurationSource(file: global.configFile, player: { player.apply(to: &$0) }, webListen: web)
            if let spec = try inputFlags.spec() { source.input = spec }
            if let pcm = try inputFlags.pcmFormat() { source.pcmFormat = pcm }
            var logger = Logger(label: "lightshow.daemon")
            // The service's own milestones (ready, reloads, reopened inputs) belong in the journal.
            if ProcessInfo.processInfo.environment["LIGHTSHOW_LOG"] == nil { logger.logLevel = .info }
            let daemon = try await DaemonService.make(
                configurationSource: source, environment: ProcessInfo.processInfo.environment,
                framesPerSecond: fps, socketGroupName: socketGroup, logger: logger
            )
            try await daemon.runUntilSignalled()
        }
    }
}
