#!/usr/bin/env bash
# Benchmark: CPU while stopped and silent (README, "Playing, paused, stopped"; issue 5). The same real-time-paced 44.1 kHz s16 stereo
# digital silence is written at the same moment into three fifos, read by
#   - `lightshow analyze --input fifo:… --format ascii --fps 60` (idle_after 10 s: it stops, fades, then sleeps),
#   - `lightshow daemon --input fifo:…` (the same, plus its control socket and STATUS= pushed on change),
#   - cava with its defaults (fifo input, raw ascii, 3 bars, 60 fps; sleep_timer off, as shipped).
# (cava's own sleep_timer isn't compared: asleep, it stops draining a fifo, which then blocks the writer.)
# After a warm-up longer than idle_after, each process's CPU time (its process CPU clock, lib/process_cpu.py) is
# sampled over the measuring window and reported as CPU-seconds per minute. Targets: lightshow ≤ 0.05 and below cava's idle cost.
set -euo pipefail

BIN=${LIGHTSHOW_BIN:-.build/release/lightshow}
WARMUP=${WARMUP:-15}
MEASURE=${MEASURE:-60}
[ -x "$BIN" ] || { echo "idle-cpu: no executable at $BIN (set LIGHTSHOW_BIN)" >&2; exit 1; }
here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/Tests/Benchmarks/lib/cava.sh"
"$here/scripts/install-packages.sh" cava python3
command -v cava >/dev/null || { echo "idle-cpu: cava is not installed" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkfifo "$work/lightshow.fifo" "$work/daemon.fifo" "$work/cava.fifo"
write_cava_raw_config "$work/cava.conf" "$work/cava.fifo" /dev/null

python3 - "$BIN" "$work" "$WARMUP" "$MEASURE" "$here/Tests/Benchmarks/lib" <<'PY'
import os, signal, subprocess, sys, time
sys.path.insert(0, sys.argv[5])
from process_cpu import cpu_ns

binary, work, warmup, measure = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
RATE, CHUNK = 44100, 441                        # 10 ms chunks of stereo s16 silence, paced to the monotonic clock

def start(command, env=None):
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL, env=env)

# The daemon: its control socket in the scratch directory, no user configuration, no systemd.
daemon_env = {k: v for k, v in os.environ.items() if k not in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "RUNTIME_DIRECTORY")}
daemon_env.update(XDG_RUNTIME_DIR=work, XDG_CONFIG_HOME=f"{work}/config")
tools = {
    "lightshow": start([binary, "analyze", "--input", f"fifo:{work}/lightshow.fifo", "--format", "ascii", "--fps", "60"]),
    "lightshow daemon": start([binary, "daemon", "--input", f"fifo:{work}/daemon.fifo"], env=daemon_env),
    "cava": start(["cava", "-p", f"{work}/cava.conf"]),
}
fifos = ["lightshow.fifo", "daemon.fifo", "cava.fifo"]
fds = [os.open(f"{work}/{name}", os.O_WRONLY) for name in fifos]
# cava 0.7 closes and reopens its fifo after 100 ms without input (a writer held up on a loaded machine), and may
# then stop reading for good: its chunks go only when there is room, so the two lightshows keep their pace.
os.set_blocking(fds[2], False)
cava_dropped = 0

def cpu_seconds(pid):
    return cpu_ns(pid) / 1e9

silence = bytes(CHUNK * 4)
origin = time.monotonic()
total = int((warmup + measure) * RATE / CHUNK)
start_cpu = None
for i in range(total):
    due = origin + i * CHUNK / RATE
    delay = due - time.monotonic()
    if delay > 0: time.sleep(delay)
    if start_cpu is None and i * CHUNK / RATE >= warmup:
        start_cpu = {name: cpu_seconds(p.pid) for name, p in tools.items()}
    for fd in fds[:2]: os.write(fd, silence)
    try: os.write(fds[2], silence)  # less than PIPE_BUF: all or nothing
    except BlockingIOError: cava_dropped += 1
end_cpu = {name: cpu_seconds(p.pid) for name, p in tools.items()}
for fd in fds: os.close(fd)
for p in tools.values():
    p.send_signal(signal.SIGINT)
    try: p.wait(timeout=5)
    except subprocess.TimeoutExpired: p.kill(); p.wait()

per_minute = {name: (end_cpu[name] - start_cpu[name]) * 60 / measure for name in tools}
print(f"idle-cpu: digital silence in real time; warm-up {warmup:g} s (> idle_after), then {measure:g} s measured")
print(f"  {'':22} {'cpu s/min':>10}")
for name, value in per_minute.items():
    print(f"  {name:22} {value:10.3f}")
cava = per_minute["cava"]
if cava_dropped:
    print(f"  cava stopped reading its fifo: {cava_dropped} of {total} chunks not taken (its figure is low)")
ratio = per_minute["lightshow"] / cava if cava > 0 else float("nan")
print(f"  lightshow / cava idle CPU  {ratio:.3f}  (target: below cava: {'met' if per_minute['lightshow'] < cava else 'MISSED'})")
for name in ("lightshow", "lightshow daemon"):
    print(f"  {name} idle CPU {per_minute[name]:.3f} s/min  (target ≤ 0.05: {'met' if per_minute[name] <= 0.05 else 'MISSED'})")
PY
