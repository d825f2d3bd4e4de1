/// A float sample from outside data (a float WAV or FLAC, raw float PCM) made safe for the analysis: NaN and
/// infinities become silence, and anything past full scale is full scale, so no sample can overflow a window's sum
/// of squares into infinities. Integer formats are in range already.
@inline(__always)
func outsideSample(_ value: Float) -> Float {
    value.isFinite ? min(1, max(-1, value)) : 0
}
