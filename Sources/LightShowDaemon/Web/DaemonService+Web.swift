import LightShowControl
import LightShowCore
import LightShowSystem
import LightShowWeb

extension DaemonService {
    /// What the web server serves: the control socket's handler and events, and the metrics text.
    var webRoutes: WebServer.Routes {
        WebServer.Routes(
            handler: DaemonControlHandler(daemon: self), events: events, metrics: { [self] in metricsText() },
            viewers: metrics.webViewers
        )
    }

    /// The web server's connections and viewers for the metrics; nil while it is off.
    var webCounts: DaemonMetrics.WebCounts? {
        guard web.port != nil else { return nil }
        let viewers = metrics.webViewers
        return DaemonMetrics.WebCounts(
            clients: web.connectionCount, viewers: ViewerCounts(viewers: viewers.viewers, droppedFrames: viewers.droppedFrames)
        )
    }

    /// Starts `[web]` with the daemon; a listener that can't be had stops the daemon (exit 74, or 78 for the token
    /// file), as the control socket's does.
    func startWeb(_ settings: WebSettings) async throws(LightShowError) {
        try await web.apply(settings, routes: webRoutes)
    }

}

extension DaemonService {
    /// Applies `[web]` from the reload thread, which may block while the server binds (its start is async): nil when
    /// done, else why not (the running server is kept).
    func applyWebWaiting(_ settings: WebSettings) -> String? {
        let outcome = BoundedQueue<String?>(capacity: 1)
        Task { [self] in
            do throws(LightShowError) {
                try await web.apply(settings, routes: webRoutes)
                _ = outcome.push(nil)
            } catch {
                _ = outcome.push(error.message)
            }
        }
        return outcome.pop() ?? nil
    }
}
