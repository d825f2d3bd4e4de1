#!/usr/bin/env bash
# Benchmark: live analysis side by side with cava (issue 3).
# One real-time-paced 44.1 kHz s16 stereo signal (silence with tone bursts in each band) is written at the same
# moment into two fifos: one read by cava (fifo input, raw ascii output, 3 bars, 60 fps, its own config file), the
# other by `lightshow analyze --input fifo:… --format ascii --fps 60`. Every output line is timestamped on arrival.
# Reports, for both: CPU-seconds per second of audio, and the median and maximum latency from each burst's onset
# to its band reaching half its rise. Targets: lightshow CPU ≤ 0.2 of cava's, median latency ≤ 0.3 of cava's.
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

python3 - "$BIN" "$work" "$ROUNDS" "$here/Tests/Benchmarks/lib" <<'PY'
import os, signal, subprocess, sys, time
sys.path.insert(0, sys.argv[4])
from bursts import BANDS, header, paced_write, read_lines, row, signal as burst_signal

binary, work, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
payload, bursts, total_frames = burst_signal(rounds, preroll=2.0)
audio_seconds = total_frames / 44100

def start(command):
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)

tools = {
    "cava": start(["cava", "-p", f"{work}/cava.conf"]),
    "lightshow": start([binary, "analyze", "--input", f"fifo:{work}/lightshow.fifo", "--format", "ascii", "--fps", "60"]),
}
lines, threads = read_lines(tools)

# Opening for writing waits until each tool has opened its end.
fds = [os.open(f"{work}/cava.fifo", os.O_WRONLY), os.open(f"{work}/lightshow.fifo", os.O_WRONLY)]
def write(index, piece):
    for fd in (fds if index % 2 == 0 else fds[::-1]):   # alternate who is written first
        os.write(fd, piece)
written_at = paced_write(payload, total_frames, write)
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

print(f"cava-live: {audio_seconds:.1f} s of 44.1 kHz s16 stereo in real time, {len(bursts)} tone bursts "
      f"({', '.join(f'{n} {f:g} Hz' for n, f in BANDS)}), 60 fps ascii")
header()
results = {name: row(name, lines[name], usage[name], audio_seconds, bursts, written_at) for name in ("lightshow", "cava")}
(cpu_l, med_l), (cpu_c, med_c) = results["lightshow"], results["cava"]
cpu_ratio, latency_ratio = cpu_l / cpu_c, med_l / med_c
print(f"  lightshow / cava CPU             {cpu_ratio:.3f}  (target ≤ 0.20: {'met' if cpu_ratio <= 0.2 else 'MISSED'})")
print(f"  lightshow / cava median latency  {latency_ratio:.3f}  (target ≤ 0.30: {'met' if latency_ratio <= 0.3 else 'MISSED'})")
if not lines["lightshow"] or not lines["cava"]:
    sys.exit("cava-live: a tool printed no frames")
PY
