"""Rendering and reading the benchmark's audio: MIDI through FluidSynth (reverb and chorus off, so a part alone
sums to its share of the mix), WAV in and out as 44.1 kHz s16 stereo, and band filtering with sox at the
crossovers the tools are configured with."""
import subprocess, wave
import numpy as np

RATE = 44100
SOUNDFONT = "/usr/share/sounds/sf2/FluidR3_GM.sf2"
CROSSOVERS = (186.0, 1723.0)                # cava's 3-bar split at 44.1 kHz; lightshow's bands are set to match
BANDS = ("bass", "mid", "treble")
SOX_BAND = {"bass": ["sinc", f"-{CROSSOVERS[0]:g}"],
            "mid": ["sinc", f"{CROSSOVERS[0]:g}-{CROSSOVERS[1]:g}"],
            "treble": ["sinc", f"{CROSSOVERS[1]:g}"]}


def render(midi, path):
    """Renders a mido file to a WAV with FluidSynth; returns the path."""
    source = path[:-4] + ".mid"
    midi.save(source)
    subprocess.run(["fluidsynth", "-ni", "-q", "-R", "0", "-C", "0", "-g", "0.6", "-r", str(RATE), "-F", path,
                    SOUNDFONT, source], check=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    return path


def read(path):
    """(frames, 2) float64 in -1…1."""
    with wave.open(path, "rb") as w:
        if w.getframerate() != RATE or w.getsampwidth() != 2:
            raise SystemExit(f"accents: {path}: expected 44.1 kHz 16-bit audio")
        data = np.frombuffer(w.readframes(w.getnframes()), dtype="<i2").astype(np.float64) / 32768
    return data.reshape(-1, w.getnchannels()) if w.getnchannels() > 1 else np.repeat(data[:, None], 2, axis=1)


def write(path, stereo):
    pcm = np.clip(np.round(stereo * 32768), -32768, 32767).astype("<i2")
    with wave.open(path, "wb") as w:
        w.setnchannels(2), w.setsampwidth(2), w.setframerate(RATE)
        w.writeframes(pcm.tobytes())
    return pcm.tobytes()


def band_filter(source, band, target):
    """The mix filtered to one band, mono, as aubio and the ideal envelope see it."""
    subprocess.run(["sox", source, "-c", "1", target, *SOX_BAND[band]], check=True, stderr=subprocess.DEVNULL)
    return target


def band_shares(mono, start, before, after):
    """Share of each band in the power a note adds: the spectrum of `after` samples from `start` minus that of the
    `before` samples ending there (what was already ringing), negative bins dropped."""
    def spectrum(a, b):
        piece = mono[max(0, a):max(0, b)]
        if len(piece) < 64:
            return np.zeros(4097)
        return np.abs(np.fft.rfft(piece * np.hanning(len(piece)), 8192)) ** 2 / max(1, len(piece))
    added = np.maximum(spectrum(start, start + after) - spectrum(start - before, start), 0)
    hz = np.fft.rfftfreq(8192, 1 / RATE)
    power = [added[(hz >= lo) & (hz < hi)].sum()
             for lo, hi in ((20, CROSSOVERS[0]), CROSSOVERS, (CROSSOVERS[1], RATE / 2))]
    total = sum(power)
    return [p / total if total > 0 else 0 for p in power]


def envelope_1ms(mono):
    """Peak magnitude in each millisecond; index i covers [i, i+1) ms (block edges rounded to samples)."""
    count = int(len(mono) * 1000 / RATE)
    if count == 0:
        return np.zeros(0)
    edges = (np.arange(count) * RATE) // 1000
    return np.maximum.reduceat(np.abs(mono[:(count * RATE) // 1000]), edges)


def rms_at(mono, times, window=0.02):
    """Causal RMS over `window` seconds ending at each time."""
    squares = np.concatenate([[0.0], np.cumsum(mono * mono)])
    ends = np.clip(np.round(np.asarray(times) * RATE).astype(int), 0, len(mono))
    starts = np.maximum(ends - int(window * RATE), 0)
    counts = np.maximum(ends - starts, 1)
    return np.sqrt((squares[ends] - squares[starts]) / counts)

