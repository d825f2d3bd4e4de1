public import LightShowControl
public import LightShowCore
public import LightShowEngine
public import LightShowLights

/// The daemon's metrics at one moment, and their Prometheus text (README "Metrics" lists them). Built from what
/// the daemon already keeps (`ctl status`'s snapshot, the capture's counters, the lights' packet counts, the
/// control server's clients) and from `DaemonMetrics`; pure, so the text is tested without a daemon.
public struct DaemonMetricsReport: Sendable {
    public var framesEmitted: UInt64
    public var capture: CaptureTotals
    /// Whether the input is open (capture running, not waiting to open or reopen).
    public var inputOpen: Bool
    public var state: PlaybackState
    public var reloads: (ok: UInt64, failed: UInt64)
    public var lights: [LightOutputStatus]
    public var analysisHop: HistogramSnapshot
    public var audioToFrame: HistogramSnapshot
    /// Connections to the control socket, subscribers among them.
    public var controlClients: Int
    public var subscribers: ViewerCounts
    /// What the web server process reported with the request; nil when off (or asked by another client).
    public var web: WebServerCounts?

    public init(
        framesEmitted: UInt64, capture: CaptureTotals, inputOpen: Bool, state: PlaybackState, reloads: (ok: UInt64, failed: UInt64),
        lights: [LightOutputStatus], analysisHop: HistogramSnapshot, audioToFrame: HistogramSnapshot, controlClients: Int,
        subscribers: ViewerCounts, web: WebServerCounts?
    ) {
        self.framesEmitted = framesEmitted
        self.capture = capture
        self.inputOpen = inputOpen
        self.state = state
        self.reloads = reloads
        self.lights = lights
        self.analysisHop = analysisHop
        self.audioToFrame = audioToFrame
        self.controlClients = controlClients
        self.subscribers = subscribers
        self.web = web
    }

    public var text: String {
        var text = PrometheusText()
        text.family("lightshow_frames_total", .counter, help: "Frames the show handed to its outputs.", value: Double(framesEmitted))
        text.family("lightshow_input_open", .gauge, help: "1 while the configured input is open, 0 while the daemon waits to open it.", value: inputOpen ? 1 : 0)
        text.family("lightshow_capture_xruns_total", .counter, help: "Capture overruns: the reader fell behind and the device dropped audio.", value: Double(capture.overruns))
        text.family("lightshow_capture_recoveries_total", .counter, help: "Capture faults cleared without reopening the device.", value: Double(capture.recoveries))
        text.family("lightshow_capture_losses_total", .counter, help: "Times the capture device was lost and closed.", value: Double(capture.losses))
        text.family("lightshow_capture_reopens_total", .counter, help: "Times a lost capture device was opened again and capture resumed.", value: Double(capture.reopens))
        text.family("lightshow_reloads_total", .counter, help: "Configuration reloads (SIGHUP, ctl reload), by result.", samples: [
            ([("result", "ok")], Double(reloads.ok)), ([("result", "failed")], Double(reloads.failed)),
        ])
        text.family("lightshow_state", .gauge, help: "The show's playback state: 1 for the current one.", samples: PlaybackState.allCases.map { candidate in
            ([("state", candidate.rawValue)], candidate == state ? 1 : 0)
        })
        text.family("lightshow_clients", .gauge, help: "Connected clients: the control socket's (subscribers among them) and the web server's.", samples:
            [([("kind", "control")], Double(controlClients))] + (web.map { [([("kind", "web")], Double($0.clients))] } ?? []))
        if let web {
            let reasons = Set(WebRejection.reasons.values).union(web.refusals.keys).sorted()
            text.family("lightshow_web_refusals_total", .counter, help: "Requests the web server refused, by reason (bad_request, not_found, timeout, ...).", samples: reasons.map { reason in
                ([("reason", reason)], Double(web.refusals[reason] ?? 0))
            })
        }
        let viewers = [("subscriber", subscribers)] + (web.map { [("web", ViewerCounts(viewers: $0.viewers, droppedFrames: $0.droppedFrames))] } ?? [])
        text.family("lightshow_viewers", .gauge, help: "Viewers receiving frames: control-socket subscribers and WebSocket viewers.", samples: viewers.map { kind, counts in
            ([("kind", kind)], Double(counts.viewers))
        })
        text.family("lightshow_viewer_dropped_frames_total", .counter, help: "Frames viewers of a kind missed because they had not taken the previous one.", samples: viewers.map { kind, counts in
            ([("kind", kind)], Double(counts.droppedFrames))
        })
        text.family("lightshow_light_packets_sent_total", .counter, help: "Datagrams a network light output sent.", samples: lights.map { light in
            (Self.labels(light), Double(light.packetsSent))
        })
        text.family("lightshow_light_send_errors_total", .counter, help: "Datagrams a network light output failed to send.", samples: lights.map { light in
            (Self.labels(light), Double(light.sendErrors))
        })
        text.histogram("lightshow_analysis_hop_seconds", help: "Analysis time of one hop (spectrum to band levels).", analysisHop)
        text.histogram("lightshow_audio_to_frame_latency_seconds", help: "From the capture of a frame's newest sample to the frame reaching the outputs.", audioToFrame)
        return text.text
    }

    /// A light output's labels: its configured name (or `lights[N]`) and where it sends.
    private static func labels(_ light: LightOutputStatus) -> PrometheusText.Labels {
        [("output", light.name), ("destination", light.destination)]
    }
}
