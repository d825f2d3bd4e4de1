#!/usr/bin/env bash
# What watching costs on a desktop: cava, then `lightshow watch`, each alone in a 160×48 xterm (`-fa Monospace -fs 8`)
# on a private Xvfb, each fed the same music (lib/music.sh) through a fifo in real-time 10 ms chunks (lib/bursts.py),
# so both draw at 60 fps. For each: CPU-seconds per second of the program, of xterm and of the X server (utime +
# stime, /proc/PID/stat fields 14 and 15), their total, and what the program sent to the terminal: bytes and writes
# per second from the kernel's count of its writes (/proc/PID/io wchar and syscw). That count needs no layer
# between the program and xterm (a `script` or a tracer in the path would change how the bytes arrive); it includes
# lightshow's 8-byte wake-ups of its own viewer thread, a few hundred bytes a second at most.
# Targets: lightshow's total ≤ cava's total, and lightshow's own CPU ≤ cava's.
# A third row, one-cell (lib/one_cell.py), changes one cell a frame at 60 fps: its xterm and X columns are the
# floor under any 60 fps picture, and what lightshow's terminal costs above that floor is printed at the end.
set -euo pipefail

BIN=${LIGHTSHOW_BIN:-.build/release/lightshow}
SECONDS_OF_AUDIO=${BENCH_SECONDS:-40}
# Measured from this long after the program has drawn its first frames, for WINDOW seconds.
WARMUP=2 WINDOW=${BENCH_WINDOW:-30}
for tool in Xvfb xterm cava sox python3; do
    command -v "$tool" >/dev/null || { echo "desktop-cost: $tool is missing (make deps-bench)" >&2; exit 1; }
done
[ -x "$BIN" ] || { echo "desktop-cost: no executable at $BIN (set LIGHTSHOW_BIN)" >&2; exit 1; }
(( SECONDS_OF_AUDIO >= WARMUP + WINDOW + 5 )) || { echo "desktop-cost: BENCH_SECONDS too short for the window" >&2; exit 1; }
BIN=$(realpath "$BIN")
LIB=$(cd "$(dirname "$0")/lib" && pwd)
. "$LIB/music.sh"
. "$LIB/cava.sh"

T=$(mktemp -d /tmp/desktop-cost.XXXXXX)
cleanup() {
    local pid
    for pid in ${FEEDER:-} ${XTERM_PID:-} ${XVFB_PID:-}; do kill "$pid" 2>/dev/null || true; done
    for pid in ${FEEDER:-} ${XTERM_PID:-} ${XVFB_PID:-}; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$T"
}
trap cleanup EXIT

# A display number of its own: Xvfb picks a free one and writes it to the descriptor once it accepts clients.
Xvfb -displayfd 3 -screen 0 1600x1000x24 -nolisten tcp 3>"$T/display" 2>"$T/xvfb.log" &
XVFB_PID=$!
for _ in $(seq 100); do [ -s "$T/display" ] && break; sleep 0.1; done
[ -s "$T/display" ] || { echo "desktop-cost: Xvfb did not start: $(cat "$T/xvfb.log")" >&2; exit 1; }
export DISPLAY=":$(tr -d '\n' < "$T/display")"

write_music_pcm "$T" "$SECONDS_OF_AUDIO" "$T/in.raw"
mkdir -p "$T/state/lightshow" && touch "$T/state/lightshow/help-shown"

# utime + stime in clock ticks.
ticks() { awk '{ sub(/.*\) /, ""); print $12 + $13 }' "/proc/$1/stat"; }
io() { awk -v key="$2" '$1 == key ":" { print $2 }' "/proc/$1/io"; }
HZ=$(getconf CLK_TCK)

# measure NAME FIFO COMMAND...: runs COMMAND in a fresh xterm, feeds FIFO, prints one result line.
measure() {
    local name=$1 fifo=$2 program="" p0 x0 s0 b0 w0 t0 p1 x1 s1 b1 w1 t1
    shift 2
    mkfifo "$fifo"
    xterm -geometry 160x48 -fa Monospace -fs 8 -e env COLORTERM=truecolor XDG_STATE_HOME="$T/state" "$@" &
    XTERM_PID=$!
    # The same bytes for both, 10 ms at a time on the monotonic clock; opening the fifo waits for the program.
    python3 - "$LIB" "$T/in.raw" "$fifo" <<'PY' &
import os, sys
sys.path.insert(0, sys.argv[1])
from bursts import paced_write
payload = open(sys.argv[2], "rb").read()
fd = os.open(sys.argv[3], os.O_WRONLY)
try:
    paced_write(payload, len(payload) // 4, lambda _, chunk: os.write(fd, chunk))
except BrokenPipeError:
    pass
PY
    FEEDER=$!
    for _ in $(seq 100); do
        program=$(cat "/proc/$XTERM_PID/task/$XTERM_PID/children" 2>/dev/null | awk '{print $1}')
        [ -n "$program" ] && break
        sleep 0.1
    done
    [ -n "$program" ] || { echo "desktop-cost: $name did not start in xterm" >&2; exit 1; }
    for _ in $(seq 200); do
        [ -e "/proc/$program/io" ] || { echo "desktop-cost: $name ended before drawing" >&2; exit 1; }
        [ "$(io "$program" wchar)" -gt 20000 ] && break
        sleep 0.1
    done
    sleep "$WARMUP"
    p0=$(ticks "$program"); x0=$(ticks "$XTERM_PID"); s0=$(ticks "$XVFB_PID")
    b0=$(io "$program" wchar); w0=$(io "$program" syscw); t0=$(date +%s%N)
    sleep "$WINDOW"
    p1=$(ticks "$program"); x1=$(ticks "$XTERM_PID"); s1=$(ticks "$XVFB_PID")
    b1=$(io "$program" wchar); w1=$(io "$program" syscw); t1=$(date +%s%N)
    kill "$program" 2>/dev/null || true
    wait "$XTERM_PID" 2>/dev/null || true
    kill "$FEEDER" 2>/dev/null || true
    wait "$FEEDER" 2>/dev/null || true
    XTERM_PID="" FEEDER=""
    awk -v name="$name" -v p=$((p1 - p0)) -v x=$((x1 - x0)) -v s=$((s1 - s0)) -v b=$((b1 - b0)) -v w=$((w1 - w0)) \
        -v ns=$((t1 - t0)) -v hz="$HZ" 'BEGIN {
        sec = ns / 1e9
        printf "  %-10s %8.4f %8.4f %8.4f %8.4f %10.0f %8.1f\n", name, p / hz / sec, x / hz / sec, s / hz / sec,
            (p + x + s) / hz / sec, b / sec, w / sec
    }' | tee -a "$T/results"
}

write_cava_terminal_config "$T/cava.conf" "$T/cava.fifo"
echo "desktop-cost: xterm 160x48 on Xvfb $DISPLAY, 10 ms fifo chunks, ${WINDOW} s each; CPU-s per s, bytes and writes per s"
printf "  %-10s %8s %8s %8s %8s %10s %8s\n" "" program xterm X total bytes/s writes/s
measure cava "$T/cava.fifo" cava -p "$T/cava.conf"
measure one-cell "$T/floor.fifo" python3 "$LIB/one_cell.py" "$T/floor.fifo"
measure lightshow "$T/watch.fifo" "$BIN" watch --input "fifo:$T/watch.fifo" --format-pcm 44100:16:2 --fps 60
awk '$1 == "cava" { cp = $2; ct = $5 } $1 == "lightshow" { lp = $2; lt = $5; lx = $3 + $4 }
    $1 == "one-cell" { fx = $3 + $4 } END {
    printf "  lightshow / cava: total %.2f (target <= 1: %s), program %.2f (target <= 1: %s)\n",
        lt / ct, (lt <= ct ? "met" : "MISSED"), lp / cp, (lp <= cp ? "met" : "MISSED")
    printf "  xterm + X at 60 fps: floor (one-cell) %.4f, lightshow %.4f (%.4f above the floor)\n", fx, lx, lx - fx
}' "$T/results"
