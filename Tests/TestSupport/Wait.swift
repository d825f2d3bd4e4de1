import Foundation

/// The tests' one way to wait: poll a condition until it holds or a deadline passes, never a bare sleep.
/// `OffPool.until` runs the blocking form on a thread of its own; `waitFor` throws instead of returning false.
public enum Wait {
    @discardableResult
    public static func until(timeout: Double = 10, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try condition() { return true }
            usleep(5_000)
        }
        return try condition()
    }

    /// The same for async tests: true once `condition` holds, polled every 20 ms until `timeout` seconds.
    public static func until(within timeout: Double, _ condition: () async -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if await condition() { return true }
            try? await Task.sleep(nanoseconds: 20_000_000)
        }
        return await condition()
    }

    public static func until(within timeout: Double, _ condition: () -> Bool) async -> Bool {
        await until(within: timeout) { () async -> Bool in condition() }
    }
}

/// Waits until `condition` holds, failing after `timeout` seconds with what was awaited.
public func waitFor(_ what: String, timeout: Double, _ condition: () -> Bool) async throws {
    guard await Wait.until(within: timeout, condition) else {
        throw ExternalTool.Failure(description: "timed out after \(timeout) s waiting for \(what)")
    }
}
