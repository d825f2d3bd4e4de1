#!/usr/bin/env bash
# `lightshow watch` against cava (noncurses, 3 bars), each in its own 160×48 tmux pane, both fed the same
# real-time-paced 44.1 kHz 16-bit stereo PCM through a fifo, at 60 fps. Measures CPU-seconds per audio-second
# (the process CPU clock, lib/process_cpu.py) and bytes per second sent to the terminal (the pane's output
# recorded by `script -f`), and compares them with cava and with a naive full redraw (an SGR pair and a glyph for
# every cell, every frame).
# Targets: CPU ≤ 0.33 of cava's; bytes/s ≤ 1/20 of the naive full redraw.
set -euo pipefail

BIN=${LIGHTSHOW_BIN:-.build/release/lightshow}
SECONDS_OF_AUDIO=${BENCH_SECONDS:-30}
COLUMNS_=160 ROWS_=48 FPS=60
for tool in tmux cava sox script; do
    command -v "$tool" >/dev/null || { echo "watch-vs-cava: $tool is missing (make deps-bench)" >&2; exit 1; }
done
BIN=$(realpath "$BIN")
LIB=$(cd "$(dirname "$0")/lib" && pwd)
. "$LIB/music.sh"
. "$LIB/cava.sh"

T=$(mktemp -d /tmp/watch-bench.XXXXXX)
SOCKET="watch-bench-$$"
cleanup() {
    # `script` outlives its tmux pane (it keeps its own pty), so end both programs and their `script` by PID.
    local pid parent
    for pid in ${WATCH_PID:-} ${CAVA_PID:-}; do
        parent=$(awk '{print $4}' "/proc/$pid/stat" 2>/dev/null || true)
        kill "$pid" 2>/dev/null || true
        [ -n "$parent" ] && [ "$parent" != 1 ] && kill "$parent" 2>/dev/null || true
    done
    tmux -L "$SOCKET" kill-server 2>/dev/null || true
    # Let the feeder finish its chunk before its input goes: no stray errors from a half-killed pipeline.
    [ -n "${FEEDER:-}" ] && { kill "$FEEDER" 2>/dev/null; wait "$FEEDER" 2>/dev/null; } || true
    rm -rf "$T"
}
trap cleanup EXIT

write_music_pcm "$T" "$SECONDS_OF_AUDIO" "$T/in.raw"
mkfifo "$T/watch.fifo" "$T/cava.fifo"

write_cava_terminal_config "$T/cava.conf" "$T/cava.fifo"

mkdir -p "$T/state/lightshow" && touch "$T/state/lightshow/help-shown"
tmux -L "$SOCKET" new-session -d -s watch -x $COLUMNS_ -y $ROWS_ -e COLORTERM=truecolor -e XDG_STATE_HOME="$T/state" \
    "script -fq -c '$BIN watch --input fifo:$T/watch.fifo --format-pcm 44100:16:2 --fps $FPS' $T/watch.out"
tmux -L "$SOCKET" new-session -d -s cava -x $COLUMNS_ -y $ROWS_ -e COLORTERM=truecolor \
    "script -fq -c 'cava -p $T/cava.conf' $T/cava.out"

# Paces the input in real time: 50 ms chunks at absolute deadlines, the same bytes to both fifos.
pace() {
    local chunk=8820 size start i=0 now target
    size=$(stat -c%s "$T/in.raw")
    exec 3>"$T/watch.fifo" 4>"$T/cava.fifo"
    start=$(date +%s%N)
    while (( i * chunk < size )); do
        dd if="$T/in.raw" bs=$chunk skip=$i count=1 status=none | tee /dev/fd/4 >&3
        i=$((i + 1))
        target=$((start + i * 50000000)); now=$(date +%s%N)
        if (( target > now )); then sleep "$(printf '0.%09d' $((target - now)))"; fi
    done
}
FEED_START=$(date +%s)
pace & FEEDER=$!

# Find both programs once they run.
# The process named $2 whose command line contains $1 (no procps needed).
pid_of() {
    local dir
    for dir in /proc/[0-9]*; do
        [ "$(cat "$dir/comm" 2>/dev/null)" = "$2" ] || continue
        tr '\0' ' ' < "$dir/cmdline" 2>/dev/null | grep -qF -- "$1" && { echo "${dir#/proc/}"; return; }
    done
    return 0
}
for _ in $(seq 100); do
    WATCH_PID=$(pid_of "$T/watch.fifo" lightshow || true); CAVA_PID=$(pid_of "$T/cava.conf" cava || true)
    [ -n "$WATCH_PID" ] && [ -n "$CAVA_PID" ] && break
    sleep 0.1
done
[ -n "$WATCH_PID" ] && [ -n "$CAVA_PID" ] || { echo "watch-vs-cava: a program did not start" >&2; exit 1; }

# CPU time in nanoseconds, every thread included, those that have exited too.
cpu_ns() { python3 "$LIB/process_cpu.py" "$1"; }
# Measure the steady state: from 1 s after watch has drawn its first frames (FFTW planning and a cold start
# are not the cost of showing lights) until 1 s before the input ends.
for _ in $(seq 200); do [ "$(stat -c%s "$T/watch.out")" -gt 20000 ] && break; sleep 0.1; done
sleep 1
W0=$(cpu_ns "$WATCH_PID"); C0=$(cpu_ns "$CAVA_PID")
WB0=$(stat -c%s "$T/watch.out"); CB0=$(stat -c%s "$T/cava.out"); T0=$(date +%s%N)
REMAINING=$((FEED_START + SECONDS_OF_AUDIO - 1 - $(date +%s)))
(( REMAINING >= 5 )) || { echo "watch-vs-cava: start-up took too long to leave a measurement window" >&2; exit 1; }
sleep "$REMAINING"
W1=$(cpu_ns "$WATCH_PID"); C1=$(cpu_ns "$CAVA_PID")
WB1=$(stat -c%s "$T/watch.out"); CB1=$(stat -c%s "$T/cava.out"); T1=$(date +%s%N)

awk -v w=$((W1 - W0)) -v c=$((C1 - C0)) -v wb=$((WB1 - WB0)) -v cb=$((CB1 - CB0)) -v ns=$((T1 - T0)) \
    -v cells=$((COLUMNS_ * ROWS_)) -v fps=$FPS 'BEGIN {
    s = ns / 1e9
    wcpu = w / 1e9 / s; ccpu = c / 1e9 / s
    # Naive full redraw: ESC[38;2;R;G;B;48;2;R;G;Bm (3-digit channels) and a 3-byte ▀, for every cell, every frame.
    naive = cells * (length("\033[38;2;128;128;128;48;2;128;128;128m") + 3) * fps
    printf "watch-vs-cava over %.1f s of audio (160x48, %d fps)\n", s, fps
    printf "  CPU-s per audio-s: watch %.4f  cava %.4f  ratio %.2f (target <= 0.33)\n", wcpu, ccpu, (ccpu > 0 ? wcpu / ccpu : 0)
    printf "  bytes/s to the terminal: watch %.0f  cava %.0f  naive full redraw %.0f\n", wb / s, cb / s, naive
    printf "  watch / naive full redraw %.3f (target <= 0.05); watch / cava %.1f\n", wb / s / naive, (cb > 0 ? wb / cb : 0)
}'
