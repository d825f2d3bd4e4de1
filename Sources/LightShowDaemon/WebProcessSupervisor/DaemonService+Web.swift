import LightShowCore

extension DaemonService {
    /// Starts `[web]` with the daemon; a listener that can't be had stops the daemon (exit 74, or 78 for the token
    /// file), as the control socket's does.
    func startWeb(_ settings: WebSettings) async throws(LightShowError) {
        try await web.apply(settings)
    }
}

extension DaemonService {
    /// Applies `[web]` for a reload, suspended while the server starts: nil when done, else why not (the running
    /// server is kept).
    func applyWeb(_ settings: WebSettings) async -> String? {
        do throws(LightShowError) {
            try await web.apply(settings)
            return nil
        } catch {
            return error.message
        }
    }
}
