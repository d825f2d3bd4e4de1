import CFFTW
import Synchronization

/// The FFTW planner (plan creation and destruction) is not thread-safe; only `fftwf_execute` is.
/// Every plan in the process is made and destroyed under this one lock.
enum FFTWPlanner {
    private static let lock = Mutex<Void>(())

    static func withLock<T>(_ body: () throws -> T) rethrows -> T {
        try lock.withLock { _ in try body() }
    }
}
