import ArgumentParser

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
        subcommands: [
            WatchCommand.self,
            RecordCommand.self,
            AnalyzeCommand.self,
            DaemonCommand.self,
            CtlCommand.self,
            DevicesCommand.self,
            ConfigCommand.self,
        ]
    )
}
