#!/usr/bin/env bash
# Benchmark: live analysis side by side with cava (DESIGN.md §10, issue 3).
# One real-time-paced 44.1 kHz s16 stereo signal (silence with tone bursts in each band) is written at the same
# moment into two fifos: one read by cava (fifo input, raw ascii output, 3 bars, 60 fps, its own config file), the
# other by `lightshow analyze --input fifo:… --format ascii --fps 60`. Every output line is timestamped on arrival.
# Reports, for both: CPU-seconds per second of audio, and the median and maximum latency from each burst's onset
# to its band reaching half its rise. Targets: lightshow CPU ≤ 1/3 of cava's, median latency ≤ 1/2 of cava's.
set -euo pipefail

BIN=${LIGHTSHOW_BIN:-.build/release/lightshow}
ROUNDS=${ROUNDS:-8}
[ -x "$BIN" ] || { echo "cava-live: no executable at $BIN (set LIGHTSHOW_BIN)" >&2; exit 1; }
here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/Tests/Benchmarks/lib/cava.sh"
"$here/scripts/install-packages.sh" cava python3
command -v cava >/dev/null || { echo "cava-live: cava is not installed" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkfifo "$work/cava.fifo" "$work/lightshow.fifo"
write_cava_raw_config "$work/cava.conf" "$work/cava.fifo" /dev/stdout

python3 - "$BIN" "$work" "$ROUNDS" <<'PY'
import array, math, os, signal, statistics, subprocess, sys, threading, time

binary, work, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
RATE, CHUNK = 44100, 441                       # written in 10 ms chunks, paced to the monotonic clock
PREROLL, BURST, GAP, TAIL = 2.0, 0.4, 1.2, 1.0  # seconds
BANDS = [("bass", 100.0), ("mid", 1000.0), ("treble", 6000.0)]  # inside both tools' bands (cava: 50…10000 Hz in 3 bars)

# The signal, and each burst's onset as a frame index.
frames = array.array("h")
bursts = []                                     # (band index, onset frame)
def silence(seconds):
    frames.extend([0] * (2 * int(seconds * RATE)))
def tone(frequency, seconds):
    count, fade = int(seconds * RATE), int(0.005 * RATE)
    for n in range(count):
        gain = min(1.0, n / fade, (count - n) / fade)
        value = int(0.5 * 32767 * gain * math.sin(2 * math.pi * frequency * n / RATE))
        frames.extend((value, value))
silence(PREROLL)
for _ in range(rounds):
    for index, (_, frequency) in enumerate(BANDS):
        bursts.append((index, len(frames) // 2))
        tone(frequency, BURST)
        silence(GAP)
silence(TAIL)
total_frames = len(frames) // 2
audio_seconds = total_frames / RATE
payload = frames.tobytes()

def start(command):
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)

tools = {
    "cava": start(["cava", "-p", f"{work}/cava.conf"]),
    "lightshow": start([binary, "analyze", "--input", f"fifo:{work}/lightshow.fifo", "--format", "ascii", "--fps", "60"]),
}
lines = {name: [] for name in tools}            # (monotonic seconds, [B, M, T])
def reader(name, stream):
    for raw in stream:
        stamp = time.monotonic()
        values = [int(v) for v in raw.decode(errors="replace").strip().split(";") if v.strip().isdigit()]
        if len(values) == 3:
            lines[name].append((stamp, values))
threads = [threading.Thread(target=reader, args=(n, p.stdout), daemon=True) for n, p in tools.items()]
for t in threads: t.start()

# Opening for writing waits until each tool has opened its end.
fds = [os.open(f"{work}/cava.fifo", os.O_WRONLY), os.open(f"{work}/lightshow.fifo", os.O_WRONLY)]
chunk_bytes = CHUNK * 4
written_at = {}                                 # chunk index → monotonic time it was written
origin = time.monotonic()
for i in range(0, (total_frames + CHUNK - 1) // CHUNK):
    due = origin + i * CHUNK / RATE
    delay = due - time.monotonic()
    if delay > 0: time.sleep(delay)
    piece = payload[i * chunk_bytes:(i + 1) * chunk_bytes]
    order = fds if i % 2 == 0 else fds[::-1]    # alternate who is written first
    for fd in order: os.write(fd, piece)
    written_at[i] = time.monotonic()
for fd in fds: os.close(fd)

# lightshow ends at the end of the fifo; cava keeps waiting, so it is stopped. wait4 gives each one's CPU time.
def reap(process, stop_after):
    deadline = time.monotonic() + stop_after
    while True:
        pid, _, rusage = os.wait4(process.pid, os.WNOHANG)
        if pid:
            return rusage.ru_utime + rusage.ru_stime
        if time.monotonic() >= deadline:
            process.send_signal(signal.SIGINT)
            _, _, rusage = os.wait4(process.pid, 0)
            return rusage.ru_utime + rusage.ru_stime
        time.sleep(0.02)
usage = {"lightshow": reap(tools["lightshow"], 10), "cava": reap(tools["cava"], 0)}
for t in threads: t.join(timeout=5)

def latencies(name):
    series = lines[name]
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

print(f"cava-live: {audio_seconds:.1f} s of 44.1 kHz s16 stereo in real time, {len(bursts)} tone bursts "
      f"({', '.join(f'{n} {f:g} Hz' for n, f in BANDS)}), 60 fps ascii")
print(f"  {'':10} {'lines':>6} {'cpu s/s':>9} {'median ms':>10} {'max ms':>8} {'missed':>7}")
results = {}
for name in ("lightshow", "cava"):
    found, misses = latencies(name)
    cpu = usage[name] / audio_seconds
    median = statistics.median(found) * 1000 if found else float("nan")
    worst = max(found) * 1000 if found else float("nan")
    results[name] = (cpu, median)
    print(f"  {name:10} {len(lines[name]):6d} {cpu:9.4f} {median:10.1f} {worst:8.1f} {misses:7d}")
(cpu_l, med_l), (cpu_c, med_c) = results["lightshow"], results["cava"]
cpu_ratio, latency_ratio = cpu_l / cpu_c, med_l / med_c
print(f"  lightshow / cava CPU             {cpu_ratio:.3f}  (target ≤ 0.333: {'met' if cpu_ratio <= 1/3 else 'MISSED'})")
print(f"  lightshow / cava median latency  {latency_ratio:.3f}  (target ≤ 0.5: {'met' if latency_ratio <= 0.5 else 'MISSED'})")
if not lines["lightshow"] or not lines["cava"]:
    sys.exit("cava-live: a tool printed no frames")
PY
