public import ServiceLifecycle

extension ControlServer: Service {
    /// Serves until graceful shutdown or cancellation, then closes every client and removes the socket,
    /// so the daemon can run it in its ServiceGroup.
    public func run() async throws {
        start()
        try? await gracefulShutdown()
        shutdown()
        await stopped()
    }
}
