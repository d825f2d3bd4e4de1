import ArgumentParser
import LightShowSystem
#if canImport(Glibc)
import Glibc
#endif

@main
struct Lightshow: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lightshow",
        abstract: "Audio-reactive light show: bass, mid and treble drive three circle lights.",
        discussion: """
        Examples:
          lightshow watch --input demo
          lightshow analyze --input song.flac --format jsonl
          lightshow record --input song.wav --out frames/ --fps 30
          lightshow daemon --config /etc/lightshow/lightshow.toml
        """,
        version: lightshowVersion,
        subcommands: [
            WatchCommand.self,
            RecordCommand.self,
            AnalyzeCommand.self,
            DaemonCommand.self,
            CtlCommand.self,
            DevicesCommand.self,
            ConfigCommand.self,
            LightsCommand.self,
        ]
    )

    static func main() async {
        // Every write handles EPIPE (data on stdout, log lines on stderr): a reader that went away, such as `tee`
        // behind a daemon's log, must not kill the process.
        signal(SIGPIPE, SIG_IGN)
        ProcessLogging.bootstrap()
        // Every config file is parsed in a throw-away process first, so a file that crashes the TOML parser
        // can't take this one (a running daemon, on reload) down with it.
        ConfigParserProbe.install()
        await main(nil)
    }
}
