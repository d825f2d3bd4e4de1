import LightShowCore
import LightShowSystem

extension DaemonService {
    /// Starts `[web]` with the daemon; a listener that can't be had stops the daemon (exit 74, or 78 for the token
    /// file), as the control socket's does.
    func startWeb(_ settings: WebSettings) async throws(LightShowError) {
        try await web.apply(settings)
    }
}

extension DaemonService {
    /// Applies `[web]` from the reload thread, which may block while the server starts (its start is async): nil
    /// when done, else why not (the running server is kept).
    func applyWebWaiting(_ settings: WebSettings) -> String? {
        let outcome = BoundedQueue<String?>(capacity: 1)
        Task { [self] in
            do throws(LightShowError) {
                try await web.apply(settings)
                _ = outcome.push(nil)
            } catch {
                _ = outcome.push(error.message)
            }
        }
        return outcome.pop() ?? nil
    }
}
