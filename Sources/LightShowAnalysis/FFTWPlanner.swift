import CFFTW
import Synchronization

/// The FFTW planner (plan creation and destruction) is not thread-safe; only `fftwf_execute` is.
/// Every plan in the process is made and destroyed under this one lock.
enum FFTWPlanner {
    private static let lock = Mutex<Void>(())

    static func withLock<T>(_ body: () throws -> T) rethrows -> T {
        try lock.withLock { _ in try body() }
    }

    /// Under the lock: an input of `inputCount` and an output of `outputCount` elements, SIMD-aligned by
    /// `fftwf_malloc`, and the plan `plan` makes on them; traps, naming `what`, when FFTW cannot make them.
    static func make<Input, Output>(
        _ what: String, inputCount: Int, outputCount: Int,
        plan: (UnsafeMutablePointer<Input>, UnsafeMutablePointer<Output>) -> fftwf_plan?
    ) -> (UnsafeMutablePointer<Input>, UnsafeMutablePointer<Output>, fftwf_plan) {
        let made: (UnsafeMutablePointer<Input>, UnsafeMutablePointer<Output>, fftwf_plan)? = withLock {
            guard let rawIn = fftwf_malloc(MemoryLayout<Input>.stride * inputCount),
                  let rawOut = fftwf_malloc(MemoryLayout<Output>.stride * outputCount)
            else { return nil }
            let input = rawIn.bindMemory(to: Input.self, capacity: inputCount)
            let output = rawOut.bindMemory(to: Output.self, capacity: outputCount)
            guard let made = plan(input, output) else {
                fftwf_free(rawIn)
                fftwf_free(rawOut)
                return nil
            }
            return (input, output, made)
        }
        guard let made else { preconditionFailure("FFTW could not allocate or plan \(what)") }
        return made
    }
}
