import Foundation

/// Polls a condition until it holds or a deadline passes: synchronisation for tests, never a bare sleep.
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
}
