"""Paced tone bursts shared by the live latency benchmarks (cava-live.sh, pulse-latency.sh): the signal, readers
that timestamp each output line on arrival, and the latency from each burst's write to its band's half rise.
accents.sh paces its music through paced_write and read_lines too."""
import array, math, statistics, threading, time

RATE, CHUNK = 44100, 441                        # written in 10 ms chunks, paced to the monotonic clock
BURST, GAP, TAIL = 0.4, 1.2, 1.0                # seconds
BANDS = [("bass", 100.0), ("mid", 1000.0), ("treble", 6000.0)]  # inside both tools' bands (cava: 50…10000 Hz in 3 bars)


def signal(rounds, preroll):
    """44.1 kHz s16 stereo: silence, then `rounds` × one burst per band. Returns (bytes, bursts, frames), each
    burst as (band index, onset frame)."""
    frames, bursts = array.array("h"), []
    def silence(seconds):
        frames.extend([0] * (2 * int(seconds * RATE)))
    def tone(frequency, seconds):
        count, fade = int(seconds * RATE), int(0.005 * RATE)
        for n in range(count):
            gain = min(1.0, n / fade, (count - n) / fade)
            value = int(0.5 * 32767 * gain * math.sin(2 * math.pi * frequency * n / RATE))
            frames.extend((value, value))
    silence(preroll)
    for _ in range(rounds):
        for index, (_, frequency) in enumerate(BANDS):
            bursts.append((index, len(frames) // 2))
            tone(frequency, BURST)
            silence(GAP)
    silence(TAIL)
    return frames.tobytes(), bursts, len(frames) // 2


def ascii_levels(text):
    """[B, M, T] from a raw ascii line, or None for anything else."""
    values = [int(v) for v in text.strip().split(";") if v.strip().isdigit()]
    return values if len(values) == 3 else None


def read_lines(processes, parse=ascii_levels):
    """Starts a thread per process collecting (monotonic time, parse(line)) for each line parse accepts (raw ascii
    levels unless told otherwise)."""
    lines = {name: [] for name in processes}
    def reader(name, stream):
        for raw in stream:
            stamp = time.monotonic()
            parsed = parse(raw.decode(errors="replace"))
            if parsed is not None:
                lines[name].append((stamp, parsed))
    threads = [threading.Thread(target=reader, args=(n, p.stdout), daemon=True) for n, p in processes.items()]
    for t in threads: t.start()
    return lines, threads


def paced_write(payload, total_frames, write):
    """Calls write(chunk index, bytes) every 10 ms of audio; returns chunk index → monotonic time written."""
    chunk_bytes, written_at = CHUNK * 4, {}
    origin = time.monotonic()
    for i in range(0, (total_frames + CHUNK - 1) // CHUNK):
        delay = origin + i * CHUNK / RATE - time.monotonic()
        if delay > 0: time.sleep(delay)
        write(i, payload[i * chunk_bytes:(i + 1) * chunk_bytes])
        written_at[i] = time.monotonic()
    return written_at


def latencies(series, bursts, written_at):
    """Seconds from each burst's write to its band reaching half its rise, and how many bursts never showed."""
    found, misses = [], 0
    for band, onset in bursts:
        t0 = written_at[onset // CHUNK]
        before = [v[band] for t, v in series if t0 - 0.3 <= t < t0]
        during = [(t, v[band]) for t, v in series if t0 <= t <= t0 + BURST + 0.3]
        base = statistics.median(before) if before else 0
        peak = max((v for _, v in during), default=base)
        if peak - base < 50:
            misses += 1
            continue
        half = base + (peak - base) / 2
        found.append(next(t for t, v in during if v >= half) - t0)
    return found, misses


def row(name, series, cpu_seconds, audio_seconds, bursts, written_at, width=10):
    """One table row: lines, CPU-seconds per second of audio, median and max latency (ms), misses."""
    found, misses = latencies(series, bursts, written_at)
    cpu = cpu_seconds / audio_seconds
    median = statistics.median(found) * 1000 if found else float("nan")
    worst = max(found) * 1000 if found else float("nan")
    print(f"  {name:{width}} {len(series):6d} {cpu:9.4f} {median:10.1f} {worst:8.1f} {misses:7d}")
    return cpu, median


def header(width=10):
    print(f"  {'':{width}} {'lines':>6} {'cpu s/s':>9} {'median ms':>10} {'max ms':>8} {'missed':>7}")
