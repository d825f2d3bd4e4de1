#!/usr/bin/env bash
# record at 720p30 vs ffmpeg's PNG encoder on the same frames, in the same run.
# Records a generated 60 s track with `lightshow record`, then decodes those PNGs to raw RGB once (untimed)
# and times ffmpeg encoding the same frames to PNG files. Issue 16's two targets, each reported met or missed:
# lightshow at ≥ 6× ffmpeg's frame rate, and its frames no larger than ffmpeg's (compared on the same frames).
set -euo pipefail

BIN=${LIGHTSHOW_BIN:-.build/release/lightshow}
SECONDS_OF_AUDIO=${RECORD_BENCH_SECONDS:-60}
FPS=30
SIZE=1280x720
# ffmpeg encodes this many of our frames (the raw copy takes 2.7 MB a frame).
FFMPEG_FRAMES=${RECORD_BENCH_FFMPEG_FRAMES:-600}
TARGET=6

for tool in sox ffmpeg; do
    command -v "$tool" >/dev/null || { echo "record-speed: $tool is missing (make deps-bench)" >&2; exit 1; }
done
[ -x "$BIN" ] || { echo "record-speed: no executable at $BIN (set LIGHTSHOW_BIN)" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/record-speed.XXXXXX")
trap 'rm -rf "$work"' EXIT

# `timed FILE cmd…` runs cmd and writes "wall user sys" seconds to FILE.
timed() {
    local out=$1; shift
    local TIMEFORMAT='%R %U %S'
    { time "$@" 2>/dev/null; } 2>"$out"
}
# Frames per wall-clock second, and per CPU-second (the fairer figure when other work shares the machine).
wall_rate() { awk -v n="$1" '{ printf "%.1f", n / $1 }' "$2"; }
cpu_rate() { awk -v n="$1" '{ printf "%.1f", n / ($2 + $3) }' "$2"; }
# Total size of the first N PNG frames in a directory.
png_bytes() { find "$1" -name 'frame_*.png' -printf '%f %s\n' | sort | awk -v n="$2" 'NR <= n { s += $2 } END { print s + 0 }'; }

# Bass pulse, a mid tone and hats-like treble, with a tremolo so the lights move.
sox -n -r 44100 -c 2 "$work/track.wav" synth "$SECONDS_OF_AUDIO" sine 55 sine 440 sine 6000 tremolo 2 80

timed "$work/ours.time" "$BIN" record --input "$work/track.wav" --out "$work/ours" --fps "$FPS" --size "$SIZE"
frames=$(find "$work/ours" -name 'frame_*.png' | wc -l)
expected=$((SECONDS_OF_AUDIO * FPS))
# The recording ends with the stop's fade-out after the audio: at least one frame per 1/fps of audio.
[ "$frames" -ge "$expected" ] || { echo "record-speed: expected at least $expected frames, got $frames" >&2; exit 1; }
ours=$(wall_rate "$frames" "$work/ours.time")
ours_cpu=$(cpu_rate "$frames" "$work/ours.time")

(( FFMPEG_FRAMES > frames )) && FFMPEG_FRAMES=$frames
ffmpeg -v error -i "$work/ours/frame_%06d.png" -frames:v "$FFMPEG_FRAMES" -f rawvideo -pix_fmt rgb24 "$work/raw.rgb"
mkdir "$work/theirs"
timed "$work/theirs.time" ffmpeg -v error -f rawvideo -pix_fmt rgb24 -s "$SIZE" -r "$FPS" -i "$work/raw.rgb" \
    -c:v png "$work/theirs/frame_%06d.png"
theirs=$(wall_rate "$FFMPEG_FRAMES" "$work/theirs.time")
theirs_cpu=$(cpu_rate "$FFMPEG_FRAMES" "$work/theirs.time")
# Sizes compared on the same frames.
bytes=$(png_bytes "$work/ours" "$FFMPEG_FRAMES")
their_bytes=$(png_bytes "$work/theirs" "$FFMPEG_FRAMES")

ratio=$(awk -v a="$ours" -v b="$theirs" 'BEGIN { printf "%.2f", a / b }')
cpu_ratio=$(awk -v a="$ours_cpu" -v b="$theirs_cpu" 'BEGIN { printf "%.2f", a / b }')
met=$(awk -v r="$ratio" -v t="$TARGET" 'BEGIN { print (r >= t) ? "met" : "MISSED" }')
ours_per_frame=$((bytes / FFMPEG_FRAMES)) theirs_per_frame=$((their_bytes / FFMPEG_FRAMES))
size_met=$([ "$ours_per_frame" -le "$theirs_per_frame" ] && echo met || echo MISSED)
kb() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1024 }'; }
echo "record-speed: ${SIZE} ${FPS} fps, ${SECONDS_OF_AUDIO} s of audio"
echo "  lightshow record: ${ours} frames/s, ${ours_cpu} per CPU-second (${frames} frames incl. analysis, $(awk -v r="$ours" -v f="$FPS" 'BEGIN { printf "%.1f", r / f }')× real time)"
echo "  ffmpeg -c:v png : ${theirs} frames/s, ${theirs_cpu} per CPU-second (${FFMPEG_FRAMES} of the same frames)"
echo "  rate: ${ratio}× ffmpeg's frame rate (target ≥ ${TARGET}×: ${met}); ${cpu_ratio}× per CPU-second"
echo "  size: $(kb "$ours_per_frame") KB per frame against ffmpeg's $(kb "$theirs_per_frame") on the same ${FFMPEG_FRAMES} frames (target ≤ ffmpeg's: ${size_met})"
