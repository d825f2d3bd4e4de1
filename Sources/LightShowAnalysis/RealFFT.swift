import CFFTW

/// One FFTW single-precision real-to-complex transform of a fixed size, with its plan and aligned buffers.
/// The plan is made once here (under the process-wide planner lock) and freed in `deinit`.
/// Not thread-safe: one owner uses it.
final class RealFFT {
    let size: Int
    /// Number of complex output bins, `size/2 + 1`.
    let binCount: Int
    /// Real input, `size` floats, SIMD-aligned by `fftwf_malloc`.
    let input: UnsafeMutablePointer<Float>
    /// Complex output, `binCount` (re, im) pairs.
    let output: UnsafeMutablePointer<fftwf_complex>
    private let plan: fftwf_plan

    init(size: Int) {
        precondition(size >= 16 && size.nonzeroBitCount == 1, "FFT size must be a power of two")
        self.size = size
        binCount = size / 2 + 1
        let made: (UnsafeMutablePointer<Float>, UnsafeMutablePointer<fftwf_complex>, fftwf_plan)? = FFTWPlanner.withLock {
            guard let rawIn = fftwf_malloc(MemoryLayout<Float>.stride * size),
                  let rawOut = fftwf_malloc(MemoryLayout<fftwf_complex>.stride * (size / 2 + 1))
            else { return nil }
            let input = rawIn.bindMemory(to: Float.self, capacity: size)
            let output = rawOut.bindMemory(to: fftwf_complex.self, capacity: size / 2 + 1)
            // ESTIMATE, measured here: plans in ~1–5 ms and runs as fast as a MEASURE plan (4.0 µs vs 5.4 µs at
            // 4096 points, 0.8 vs 0.9 µs at 1024), while MEASURE spends 120–280 ms per size at start-up.
            guard let plan = fftwf_plan_dft_r2c_1d(Int32(size), input, output, UInt32(FFTW_ESTIMATE)) else {
                fftwf_free(rawIn)
                fftwf_free(rawOut)
                return nil
            }
            return (input, output, plan)
        }
        guard let made else { preconditionFailure("FFTW could not allocate or plan a \(size)-point transform") }
        (input, output, plan) = made
        input.initialize(repeating: 0, count: size)
    }

    deinit {
        FFTWPlanner.withLock {
            fftwf_destroy_plan(plan)
            fftwf_free(input)
            fftwf_free(output)
        }
    }

    /// Transforms the current contents of `input` into `output`.
    func execute() {
        fftwf_execute(plan)
    }

    /// |X_k|² of one output bin.
    @inline(__always)
    func power(_ bin: Int) -> Float {
        let value = output[bin]
        return value.0 * value.0 + value.1 * value.1
    }
}
