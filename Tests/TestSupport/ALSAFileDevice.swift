import Foundation

/// An ALSA capture PCM named `testin` that plays raw S16_LE frames from a file through the real libasound
/// (the `file` plugin over `null`): unpaced, and with no end-of-file error, so read exactly the frames written.
public final class ALSAFileDevice: @unchecked Sendable {
    public let directory: TemporaryDirectory
    public let name = "testin"
    /// The value for `ALSA_CONFIG_PATH`: the system configuration first, then the test device.
    public var configPath: String { "/usr/share/alsa/alsa.conf:\(directory.file("test.conf"))" }
    public let frameCount: Int

    /// Writes interleaved `samples` as S16_LE and a configuration that captures them.
    public init(samples: [Float], channels: Int) throws {
        directory = try TemporaryDirectory("lightshow-alsa")
        let raw = try directory.write("input.s16", Signals.s16le(samples))
        frameCount = samples.count / channels
        let conf = """
            pcm.testin {
                type file
                slave.pcm "null"
                file "/dev/null"
                infile "\(raw)"
                format "raw"
                hint.description "lightshow test input"
            }

            """
        try directory.write("test.conf", Data(conf.utf8))
    }
}
