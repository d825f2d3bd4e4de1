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
    /// cos and sin of 2πk/size for k in 0...size/2, the unpacking's twiddles, in one allocation: pointers, not
    /// arrays, since this runs some 375 times a second and arrays' checks cost more than their few reads.
    private let cosines: UnsafeMutablePointer<Float>
    private let sines: UnsafeMutablePointer<Float>
    /// Every second twiddle, packed, for `power(spacing: 2)`: live, its bins' twiddles are half as many lines to
    /// fetch from cold memory as the full tables read at a stride.
    private let evenCosines: UnsafeMutablePointer<Float>
    private let evenSines: UnsafeMutablePointer<Float>

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
        let quarter = half / 2
        cosines = .allocate(capacity: 2 * (half + 1) + 2 * (quarter + 1))
        sines = cosines + (half + 1)
        for k in 0...half {
            cosines[k] = Float(cos(2 * Double.pi * Double(k) / Double(size)))
            sines[k] = Float(sin(2 * Double.pi * Double(k) / Double(size)))
        }
        evenCosines = sines + (half + 1)
        evenSines = evenCosines + (quarter + 1)
        for k in 0...quarter { (evenCosines[k], evenSines[k]) = (cosines[2 * k], sines[2 * k]) }
    }

    deinit {
        cosines.deallocate()
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

    /// |X_k|² of the real transform for each bin k in `bins` (within 0..<binCount), written to `power[k]`, with
    /// `spacing` 1. With `spacing` 2, for a window of `size / 2` samples zero-padded to `size`: the window's own bin k
    /// is this transform's bin 2k, so `power[k]` is |X_{2k}|² for each k in `bins` (within 0...size/4). Two windows,
    /// one this size and one half of it, share one plan, one pair of buffers and one table this way: live, each
    /// wake-up finds each plan's structures, codelets and buffers cold.
    func power(bins: Range<Int>, spacing: Int, into power: UnsafeMutablePointer<Float>) {
        let half = size / 2
        let last = half / spacing
        let packed = UnsafeRawPointer(output).assumingMemoryBound(to: Float.self)
        // Bins 0 and N/2 are the sum and the difference of Z_0's parts; the others pair Z_k with Z_{M−k}.
        if bins.contains(0) { power[0] = (packed[0] + packed[1]) * (packed[0] + packed[1]) }
        if bins.contains(last) { power[last] = (packed[0] - packed[1]) * (packed[0] - packed[1]) }
        let inner = bins.clamped(to: 1..<last)
        guard !inner.isEmpty else { return }
        let raw = UnsafeRawPointer(packed)
        // Eight bins at a time: Z_j.. read forwards, Z_{M−j}.. backwards (j = spacing·k); with spacing 2, every
        // second complex value of 16, the lanes 0, 4, 8… (real parts) and 1, 5, 9… (imaginary) of 32 floats.
        if spacing == 1, inner.count >= 8 {
            return inner.eachGroupOfEight { k in
                let ahead = raw.loadUnaligned(fromByteOffset: 8 * k, as: SIMD16<Float>.self)
                let back = raw.loadUnaligned(fromByteOffset: 8 * (half - k - 7), as: SIMD16<Float>.self)
                let c = UnsafeRawPointer(cosines + k).loadUnaligned(as: SIMD8<Float>.self)
                let s = UnsafeRawPointer(sines + k).loadUnaligned(as: SIMD8<Float>.self)
                let power8 = Self.power(
                    zr: ahead.evenHalf, zi: ahead.oddHalf, cr: Self.reversed(back.evenHalf),
                    ci: -Self.reversed(back.oddHalf), c: c, s: s
                )
                UnsafeMutableRawPointer(power + k).storeBytes(of: power8, as: SIMD8<Float>.self)
            }
        }
        if spacing == 2, inner.count >= 8 {
            return inner.eachGroupOfEight { k in
                let ahead = raw.loadUnaligned(fromByteOffset: 16 * k, as: SIMD32<Float>.self)
                let back = raw.loadUnaligned(fromByteOffset: 4 * (2 * half - 4 * k - 28), as: SIMD32<Float>.self)
                let c = UnsafeRawPointer(evenCosines + k).loadUnaligned(as: SIMD8<Float>.self)
                let s = UnsafeRawPointer(evenSines + k).loadUnaligned(as: SIMD8<Float>.self)
                let power8 = Self.power(
                    zr: ahead.evenHalf.evenHalf, zi: ahead.oddHalf.evenHalf, cr: Self.reversed(back.evenHalf.evenHalf),
                    ci: -Self.reversed(back.oddHalf.evenHalf), c: c, s: s
                )
                UnsafeMutableRawPointer(power + k).storeBytes(of: power8, as: SIMD8<Float>.self)
            }
        }
        // Fewer than eight bins: one lane each.
        for k in inner {
            let j = spacing * k
            let (a, b) = (2 * j, 2 * (half - j))
            let one = { (value: Float) in SIMD8<Float>(repeating: value) }
            power[k] = Self.power(
                zr: one(packed[a]), zi: one(packed[a + 1]), cr: one(packed[b]), ci: one(-packed[b + 1]),
                c: one(cosines[j]), s: one(sines[j])
            )[0]
        }
    }

    /// |X_k|² from Z_k = zr + i·zi and Z*_{M−k} = cr + i·ci: X_k = (Z_k + Z*_{M−k})/2 − i·e^{−2πik/N}·(Z_k − Z*_{M−k})/2,
    /// M = N/2, with c and s the cos and sin of 2πk/N.
    @inline(__always)
    private static func power(
        zr: SIMD8<Float>, zi: SIMD8<Float>, cr: SIMD8<Float>, ci: SIMD8<Float>, c: SIMD8<Float>, s: SIMD8<Float>
    ) -> SIMD8<Float> {
        let (er, ei) = ((zr + cr) * 0.5, (zi + ci) * 0.5)
        let (dr, di) = ((zr - cr) * 0.5, (zi - ci) * 0.5)
        // −i·(dr + i·di) = di − i·dr, times (cos − i·sin).
        let re = er + di * c - dr * s
        let im = ei - dr * c - di * s
        return re * re + im * im
    }

    @inline(__always)
    private static func reversed(_ v: SIMD8<Float>) -> SIMD8<Float> {
        SIMD8(v[7], v[6], v[5], v[4], v[3], v[2], v[1], v[0])
    }
}
