#!/usr/bin/env bash
# Resident memory of `lightshow analyze`, `lightshow daemon` and `lightshow watch` (in a 160×48 tmux pane) beside
# cava, all fed the same real-time-paced 44.1 kHz s16 stereo music-like PCM through fifos, in one run.
# After MEASURE seconds of playing, prints each process's VmRSS (what the issue's goal counts), its PSS (shared
# pages split between their users) and its private dirty memory (what it alone costs), from /proc/PID/smaps_rollup.
# Goal: lightshow's RSS ≤ 1.5× cava's.
set -euo pipefail

BIN=${LIGHTSHOW_BIN:-.build/release/lightshow}
MEASURE=${MEASURE:-12}
for tool in tmux cava sox python3; do
    command -v "$tool" >/dev/null || { echo "memory: $tool is missing (make deps-bench)" >&2; exit 1; }
done
[ -x "$BIN" ] || { echo "memory: no executable at $BIN (set LIGHTSHOW_BIN)" >&2; exit 1; }
BIN=$(realpath "$BIN")
here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/Tests/Benchmarks/lib/cava.sh"

T=$(mktemp -d /tmp/memory-bench.XXXXXX)
SOCKET="memory-bench-$$"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    tmux -L "$SOCKET" kill-server 2>/dev/null || true
    wait 2>/dev/null || true
    rm -rf "$T"
}
trap cleanup EXIT

seconds=$((MEASURE + 10))
sox -n -r 44100 -c 2 -b 16 -e signed -t raw "$T/in.raw" synth "$seconds" sine 60 sine 700 sine 6000 tremolo 3 80
mkfifo "$T/analyze.fifo" "$T/daemon.fifo" "$T/watch.fifo" "$T/cava.fifo"
write_cava_raw_config "$T/cava.conf" "$T/cava.fifo" /dev/null
mkdir -p "$T/state/lightshow" "$T/run" && touch "$T/state/lightshow/help-shown"

"$BIN" analyze --input "fifo:$T/analyze.fifo" --format ascii --fps 60 --player none > /dev/null & pids+=($!); ANALYZE=$!
XDG_RUNTIME_DIR="$T/run" "$BIN" daemon --input "fifo:$T/daemon.fifo" --player none 2>/dev/null & pids+=($!); DAEMON=$!
cava -p "$T/cava.conf" > /dev/null 2>&1 & pids+=($!); CAVA=$!
tmux -L "$SOCKET" new-session -d -s watch -x 160 -y 48 -e COLORTERM=truecolor -e XDG_STATE_HOME="$T/state" \
    "exec $BIN watch --input fifo:$T/watch.fifo --fps 60 --player none"

# The same bytes into every fifo, 10 ms chunks at absolute deadlines.
python3 - "$T" "$seconds" <<'PY' & pids+=($!)
import os, sys, time
work, seconds = sys.argv[1], float(sys.argv[2])
data = open(f"{work}/in.raw", "rb").read()
outs = [os.open(f"{work}/{name}.fifo", os.O_WRONLY) for name in ("analyze", "daemon", "watch", "cava")]
chunk, start = 1764, time.monotonic()
for i in range(0, len(data), chunk):
    for fd in outs:
        os.write(fd, data[i:i + chunk])
    delay = start + (i // chunk + 1) * 0.01 - time.monotonic()
    if delay > 0:
        time.sleep(delay)
PY

sleep "$MEASURE"
WATCH=$(tmux -L "$SOCKET" display -p -t watch '#{pane_pid}')
kb() { awk -v key="$2:" '$1 == key { print $2 }' "/proc/$1/smaps_rollup"; }
cava_rss=$(kb "$CAVA" Rss)
printf 'memory after %d s of playing (kB)\n' "$MEASURE"
printf '  %-18s %8s %8s %14s %12s\n' process RSS PSS "private dirty" "RSS / cava"
for entry in "analyze:$ANALYZE" "daemon:$DAEMON" "watch:$WATCH" "cava:$CAVA"; do
    name=${entry%%:*} pid=${entry#*:}
    [ -r "/proc/$pid/smaps_rollup" ] || { echo "memory: $name (pid $pid) is not running" >&2; exit 1; }
    rss=$(kb "$pid" Rss) pss=$(kb "$pid" Pss)
    dirty=$(awk '$1 == "Private_Dirty:" { print $2 }' "/proc/$pid/smaps_rollup")
    printf '  %-18s %8d %8d %14d %12s\n' "$name" "$rss" "$pss" "$dirty" "$(awk -v a="$rss" -v b="$cava_rss" 'BEGIN { printf "%.2f", a / b }')"
done
echo "  goal: lightshow RSS ≤ 1.5× cava's"
