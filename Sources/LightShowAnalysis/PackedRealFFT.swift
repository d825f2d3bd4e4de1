import CFFTW

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A real transform of `size` points done as a complex one of `size/2` (the even samples as the real parts, the
/// odd as the imaginary), whose bins are unpacked only where asked. FFTW's own real transform unpacks every bin:
/// measured at 1024 points (FFTW_ESTIMATE), 1.5 µs, of which the complex 512-point transform is 0.57 µs; a caller
/// that wants a tenth of the bins saves most of the rest.
/// The plan is made once here (under the process-wide planner lock) and freed in `deinit`.
/// Not thread-safe: one owner uses it.
final class PackedRealFFT {
    let size: Int
    /// Number of bins of the real transform, `size/2 + 1`.
    let binCount: Int
    /// Real input, `size` floats, SIMD-aligned by `fftwf_malloc`: the complex transform's input read as floats.
    let input: UnsafeMutablePointer<Float>
    private let packedInput: UnsafeMutablePointer<fftwf_complex>
    private let output: UnsafeMutablePointer<fftwf_complex>
    private let plan: fftwf_plan
    /// cos and sin of 2πk/size for k in 0...size/2, the unpacking's twiddles.
    private let cosines: [Float]
    private let sines: [Float]

    init(size: Int) {
        precondition(size >= 16 && size.nonzeroBitCount == 1, "FFT size must be a power of two")
        self.size = size
        binCount = size / 2 + 1
        let half = size / 2
        // ESTIMATE: MEASURE spends 100 ms and more per size at start-up (see `RealFFT`).
        (packedInput, output, plan) = FFTWPlanner.make(
            "a \(half)-point transform", inputCount: half, outputCount: half
        ) { fftwf_plan_dft_1d(Int32(half), $0, $1, FFTW_FORWARD, UInt32(FFTW_ESTIMATE)) }
        input = UnsafeMutableRawPointer(packedInput).bindMemory(to: Float.self, capacity: size)
        input.initialize(repeating: 0, count: size)
        cosines = (0...half).map { Float(cos(2 * Double.pi * Double($0) / Double(size))) }
        sines = (0...half).map { Float(sin(2 * Double.pi * Double($0) / Double(size))) }
    }

    deinit {
        FFTWPlanner.withLock {
            fftwf_destroy_plan(plan)
            fftwf_free(packedInput)
            fftwf_free(output)
        }
    }

    /// Transforms the current contents of `input`.
    func execute() {
        fftwf_execute(plan)
    }

    /// |X_k|² of the real transform for each bin k in `bins` (within 0..<binCount), written to `power[k]`.
    func power(bins: Range<Int>, into power: UnsafeMutablePointer<Float>) {
        let half = size / 2
        let packed = UnsafeRawPointer(output).assumingMemoryBound(to: Float.self)
        // Bins 0 and N/2 are the sum and the difference of Z_0's parts; the others pair Z_k with Z_{M−k}.
        if bins.contains(0) { power[0] = (packed[0] + packed[1]) * (packed[0] + packed[1]) }
        if bins.contains(half) { power[half] = (packed[0] - packed[1]) * (packed[0] - packed[1]) }
        let inner = bins.clamped(to: 1..<half)
        guard !inner.isEmpty else { return }
        cosines.withUnsafeBufferPointer { cosines in
            sines.withUnsafeBufferPointer { sines in
                let (cosines, sines) = (cosines.baseAddress!, sines.baseAddress!)
                for k in inner {
                    // Z = the packed transform; X_k = (Z_k + Z*_{M−k})/2 − i·e^{−2πik/N}·(Z_k − Z*_{M−k})/2, M = N/2.
                    let (a, b) = (2 * k, 2 * (half - k))
                    let (zr, zi, cr, ci) = (packed[a], packed[a + 1], packed[b], -packed[b + 1])
                    let (er, ei) = (0.5 * (zr + cr), 0.5 * (zi + ci))
                    let (dr, di) = (0.5 * (zr - cr), 0.5 * (zi - ci))
                    // −i·(dr + i·di) = di − i·dr, times (cos − i·sin).
                    let (c, s) = (cosines[k], sines[k])
                    let re = er + di * c - dr * s
                    let im = ei - dr * c - di * s
                    power[k] = re * re + im * im
                }
            }
        }
    }
}
