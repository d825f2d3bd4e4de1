// swift-tools-version:6.1
import PackageDescription

// Strictness shared by every Swift target.
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "lightshow",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "lightshow", targets: ["lightshow"]),
        // The web server, a process of its own that `lightshow daemon` starts for `[web]`.
        .executable(name: "lightshow-web", targets: ["lightshow-web"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        // Exact: TOMLScalar reads a node pointer TOMLKit keeps internal (TOMLScalarTests fail if it moves).
        .package(url: "https://github.com/LebJe/TOMLKit", exact: "0.6.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        // The web page, HTTP API and WebSocket. No traits: swift-configuration and full Foundation stay out.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
    ],
    targets: [
        // C libraries, each behind a system-library target, grouped under Sources/C.
        .systemLibrary(name: "CFFTW", path: "Sources/C/CFFTW", pkgConfig: "fftw3f", providers: [.apt(["libfftw3-dev"])]),
        .systemLibrary(name: "CSndfile", path: "Sources/C/CSndfile", pkgConfig: "sndfile", providers: [.apt(["libsndfile1-dev"])]),
        .systemLibrary(name: "CALSA", path: "Sources/C/CALSA", pkgConfig: "alsa", providers: [.apt(["libasound2-dev"])]),
        .systemLibrary(name: "CZlib", path: "Sources/C/CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // libdeflate's SIMD Adler-32 and CRC-32, for the PNG encoder. Linked from its static archive (the module map
        // links ":libdeflate.a"), so the binary needs no libdeflate0 where it is installed.
        .systemLibrary(name: "CLibDeflate", path: "Sources/C/CLibDeflate", providers: [.apt(["libdeflate-dev"])]),
        // glibc's timerfd, for the viewer's one-shot deadlines (TimerDescriptor).
        .systemLibrary(name: "CTimerFD", path: "Sources/C/CTimerFD"),
        // glibc's syncfs, for making a recording durable.
        .systemLibrary(name: "CSyncFS", path: "Sources/C/CSyncFS"),
        // glibc's closefrom for posix_spawn and pipe2, for starting the web server's process.
        .systemLibrary(name: "CSpawn", path: "Sources/C/CSpawn"),
        // glibc's SO_PEERCRED credentials, for telling the daemon's own web server from local control clients.
        .systemLibrary(name: "CPeerCred", path: "Sources/C/CPeerCred"),
        .systemLibrary(name: "CFreeType", path: "Sources/C/CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
        // libpng's simplified read API: the tests' independent PNG decoder.
        .systemLibrary(name: "CPNG", path: "Sources/C/CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        // libpulse's asynchronous API: native capture from PulseAudio and pipewire-pulse. Headers only: the library is
        // opened at run time (PulseLibrary), so no pkg-config, which would link it.
        .systemLibrary(name: "CPulse", path: "Sources/C/CPulse", providers: [.apt(["libpulse-dev"])]),
        // libmosquitto's client API, for MQTT (Home Assistant). Headers only: the library is opened at run time
        // (MosquittoLibrary), only when `[mqtt] broker` is set.
        .systemLibrary(name: "CMosquitto", path: "Sources/C/CMosquitto", providers: [.apt(["libmosquitto-dev"])]),
        // OpenSSL (DTLS 1.2 with a pre-shared key) and libcurl (HTTPS), for Philips Hue. Headers only: both are opened
        // at run time (OpenSSLLibrary, CurlLibrary), only when a `hue` output is configured or a bridge is paired.
        .systemLibrary(name: "COpenSSL", path: "Sources/C/COpenSSL", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CCurl", path: "Sources/C/CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // sd-bus: the session bus, for MPRIS players.
        .systemLibrary(name: "CSystemd", path: "Sources/C/CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),

        // Pure core shared by several modules: bands, settings model, state machine, scene and layout, frames. No I/O.
        .target(name: "LightShowCore", swiftSettings: strict),
        // The one home of OS idioms: threads, locks, the bounded queue between threads, fd reads, writes and syncs,
        // poll, wake-ups, errno, owned descriptors, sockets (Unix and UDP), directories, atomic file writes, terminal
        // settings, timers, accepting connections, starting and waiting for a child process, logging to standard
        // error, the monotonic clock.
        .target(
            name: "LightShowSystem", dependencies: ["LightShowCore", "CSyncFS", "CSpawn", "CPeerCred", "CTimerFD", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        // TOML → validated Configuration.
        .target(
            name: "LightShowConfig",
            dependencies: ["LightShowCore", "LightShowSystem", .product(name: "TOMLKit", package: "TOMLKit")],
            swiftSettings: strict
        ),
        // FFTW plans and spectrum → band energies → levels; the level and accent maths.
        .target(name: "LightShowAnalysis", dependencies: ["LightShowCore", "CFFTW"], swiftSettings: strict),
        // Audio sources: ALSA and PulseAudio capture, files, raw PCM fifo/stdin, demo synth.
        .target(
            name: "LightShowAudio",
            dependencies: ["LightShowCore", "LightShowSystem", "CSndfile", "CALSA", "CPulse", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        // Network light outputs: DDP (WLED), sACN/E1.31 and Art-Net packets, layouts, the paced sender thread; Philips
        // Hue's Entertainment API (pairing over HTTPS, HueStream over DTLS) on threads of their own.
        .target(
            name: "LightShowLights",
            dependencies: [
                "LightShowCore", "LightShowSystem", "LightShowControl", "COpenSSL", "CCurl",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // Framebuffer, rasterizer, PNG and terminal encoders, the viewer's overlays (help, band tuning).
        .target(name: "LightShowRender", dependencies: ["LightShowCore", "CLibDeflate", "CFreeType"], swiftSettings: strict),
        // The interactive viewer's terminal: raw keys, alternate screen, signals, the watch loop.
        // A module of its own because it owns process-wide state (termios, signal handlers) the pure encoder must not.
        .target(name: "LightShowTerminal", dependencies: ["LightShowCore", "LightShowSystem", "LightShowRender"], swiftSettings: strict),
        // Now-playing sources behind one seam: MPD (and desktop players over MPRIS).
        .target(
            name: "LightShowNowPlaying",
            dependencies: ["LightShowCore", "LightShowSystem", "CSystemd", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        // The show: source → analyser → state machine and now playing → frames → every sink (analyze writer,
        // terminal viewer, PNG recorder, subscribers, lights).
        .target(
            name: "LightShowEngine",
            dependencies: [
                "LightShowCore", "LightShowSystem", "LightShowAnalysis", "LightShowAudio", "LightShowNowPlaying",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // `record`: record sessions, the frame sequence writer (encoders and committer threads), frames.jsonl and
        // audio.wav, all written off the engine's threads by threads of their own.
        .target(
            name: "LightShowRecording",
            dependencies: [
                "LightShowCore", "LightShowSystem", "LightShowAudio", "LightShowRender", "LightShowEngine",
                "LightShowNowPlaying", "LightShowControl", "CSndfile",
            ],
            swiftSettings: strict
        ),
        // The control socket: newline-delimited JSON server, client, protocol, and the subscription viewers read; what
        // the daemon and its web server's process tell each other.
        .target(
            name: "LightShowControl",
            dependencies: [
                "LightShowCore", "LightShowSystem",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),
        // The web page, the HTTP API (the control commands forwarded to the daemon), the frames WebSocket and
        // /metrics, served by Hummingbird on one event-loop thread in the `lightshow-web` process; the pure decisions
        // about each request (WebRequestPolicy).
        .target(
            name: "LightShowWeb",
            dependencies: [
                "LightShowCore", "LightShowSystem", "LightShowControl",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.embedInCode("Page/index.html")],
            swiftSettings: strict
        ),
        // MQTT: the broker connection on a thread of its own, and Home Assistant's discovery, state and commands.
        .target(
            name: "LightShowMQTT",
            dependencies: ["LightShowCore", "LightShowSystem", "LightShowControl", "CMosquitto", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        // The service, wiring only: lifecycle, sd_notify and watchdog, reload, capture supervision, the network lights,
        // starting the web server's process.
        .target(
            name: "LightShowDaemon",
            dependencies: [
                "LightShowCore", "LightShowSystem", "LightShowConfig", "LightShowAudio", "LightShowEngine",
                "LightShowNowPlaying", "LightShowControl", "LightShowLights", "LightShowMQTT",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),
        // Thin command line: one file per subcommand.
        .executableTarget(
            name: "lightshow",
            dependencies: [
                "LightShowCore", "LightShowSystem", "LightShowConfig", "LightShowAnalysis", "LightShowAudio", "LightShowRender",
                "LightShowNowPlaying", "LightShowEngine", "LightShowRecording", "LightShowControl", "LightShowDaemon",
                "LightShowTerminal", "LightShowLights",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict,
            plugins: ["VersionFile"]
        ),
        // The web server's process: HTTP and WebSocket libraries stay out of the daemon's binary (README, "Web page and
        // HTTP API").
        .executableTarget(
            name: "lightshow-web",
            dependencies: ["LightShowWeb", "LightShowSystem"],
            swiftSettings: strict
        ),
        // Writes `lightshowVersion` from the VERSION file for `lightshow --version`.
        .plugin(name: "VersionFile", capability: .buildTool()),

        // Helpers shared by the test targets: signal generators, temp dirs, running the real executable.
        .target(name: "TestSupport", dependencies: ["LightShowCore", "LightShowSystem", "LightShowControl", "LightShowAudio", "CPNG"], path: "Tests/TestSupport"),
        .testTarget(name: "LightShowCoreTests", dependencies: ["LightShowCore", "TestSupport"]),
        .testTarget(name: "LightShowSystemTests", dependencies: ["LightShowSystem", "LightShowCore", "TestSupport"]),
        .testTarget(name: "LightShowConfigTests", dependencies: ["LightShowConfig", "LightShowSystem", "TestSupport", "TOMLKit"]),
        .testTarget(name: "LightShowAnalysisTests", dependencies: ["LightShowAnalysis", "TestSupport"]),
        .testTarget(name: "LightShowAudioTests", dependencies: ["LightShowAudio", "LightShowAnalysis", "LightShowSystem", "TestSupport"]),
        .testTarget(name: "LightShowRecordingTests", dependencies: ["LightShowRecording", "LightShowCore", "TestSupport"]),
        .testTarget(name: "LightShowRenderTests", dependencies: ["LightShowRender", "TestSupport", "CZlib"]),
        .testTarget(name: "LightShowTerminalTests", dependencies: ["LightShowTerminal", "TestSupport"]),
        .testTarget(name: "LightShowNowPlayingTests", dependencies: ["LightShowNowPlaying", "LightShowSystem", "TestSupport", .product(name: "Logging", package: "swift-log")]),
        .testTarget(name: "LightShowEngineTests", dependencies: ["LightShowEngine", "LightShowAudio", "LightShowNowPlaying", "LightShowSystem", "TestSupport"]),
        .testTarget(name: "LightShowControlTests", dependencies: ["LightShowControl", "LightShowSystem", "TestSupport"]),
        // Packets byte for byte, layouts, pacing; DDP at a receiver socket; sACN and Art-Net at a real OLA.
        .testTarget(name: "LightShowLightsTests", dependencies: ["LightShowLights", "LightShowSystem", "LightShowControl", "TestSupport"]),
        .testTarget(name: "LightShowDaemonTests", dependencies: ["LightShowDaemon", "LightShowEngine", "LightShowAudio", "LightShowNowPlaying", "LightShowSystem", "LightShowControl", "TestSupport", .product(name: "Logging", package: "swift-log"), .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")]),
        // Discovery payloads, commands and the latest-value store; the connection against a real mosquitto.
        .testTarget(name: "LightShowMQTTTests", dependencies: ["LightShowMQTT", "LightShowControl", "LightShowSystem", "TestSupport", .product(name: "Logging", package: "swift-log")]),
        // The frames sender against NIO's test channels and its own WebSocket frame decoder.
        .testTarget(
            name: "LightShowWebTests",
            dependencies: [
                "LightShowWeb", "LightShowControl",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ]
        ),
        // Runs the built `lightshow` executable end to end.
        .testTarget(name: "IntegrationTests", dependencies: ["TestSupport", "LightShowControl", "LightShowMQTT", "LightShowSystem", "LightShowWeb"]),
    ] + fuzzTargets
)

// Fuzz targets against the real modules (`make fuzz` builds them with -sanitize=fuzzer,address -DFUZZING; a plain
// build runs each once over the files it is given, e.g. its seed corpus in Tests/Fuzz/Corpus/<name>).
var fuzzTargets: [Target] {
    let targets: [(String, [Target.Dependency])] = [
        ("FuzzConfig", ["LightShowConfig"]),
        ("FuzzControl", ["LightShowControl"]),
        ("FuzzMPD", ["LightShowNowPlaying", "LightShowCore"]),
        ("FuzzPCM", ["LightShowAudio", "LightShowCore"]),
        ("FuzzAudioFile", ["LightShowAudio", "LightShowCore"]),
        ("FuzzKeys", ["LightShowTerminal"]),
        ("FuzzWeb", ["LightShowWeb", "LightShowControl"]),
        ("FuzzWebGate", [
            "LightShowWeb", "LightShowControl", .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOEmbedded", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
        ]),
    ]
    return [
        .target(name: "CFuzzer", path: "Tests/Fuzz/CFuzzer"),
        .target(name: "FuzzDriver", dependencies: ["CFuzzer"], path: "Tests/Fuzz/FuzzDriver"),
    ] + targets.map { name, dependencies in
        .executableTarget(name: name, dependencies: ["FuzzDriver"] + dependencies, path: "Tests/Fuzz/\(name)")
    }
}
