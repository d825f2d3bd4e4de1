#!/usr/bin/env bash
# Benchmark: beat accents on real instruments. Five grooves written here as MIDI (house 124 bpm, funk 90 bpm
# with ghost notes, drum and bass 170 bpm, keys and a pad held over the snare at 100 bpm, a busy bass line of its own
# at 118 bpm: kick, snare, hats, bass, electric piano and more, bass notes on the kicks and chords on the snares)
# are rendered with FluidSynth and the FluidR3 GM soundfont, each part alone and
# the mix, and played one after another (lib/accents/songs.py).
#
# The truth (lib/accents/truth.py): every MIDI note event moved to its physical onset in its part rendered alone
# (first crossing of 30% of the event's rise in a 1 ms peak envelope), and put in the bands that hold ≥ 20% of the
# power it adds; drums by instrument: kick → bass, snare → mid, hats → treble. References within 30 ms merge.
# The bands: 20–186, 186–1723, 1723–20000 Hz for lightshow (cava's 3-bar split) and sox's sinc filters for aubio.
#
# Scored (lib/accents/score.py), with accents and with `[accents] enabled = false` (a build without accents
# fills only the second column):
# - onset F-measure at ±50 ms (mir_eval) per band, offline: `analyze --format onsets`; aubio
#   (`aubioonset -O hfc -B 1024 -H 256` on the mix filtered to the band); and the light without accents, whose
#   onsets are the first frame of each run of rising frames that climbs ≥ 0.1 of full scale.
# - live, each configuration run twice per pass, all four fed the same real-time-paced PCM through fifos side by side
#   (jsonl at 60 fps; the first run of each is scored): a drum hit is lit when its band's light is ≥ 0.1 above
#   the last frame at or before the onset within 50 ms; its delay runs to the first frame at half the rise (peak
#   within 150 ms and before the next note of any part, more than 30 ms on). Wall clock: a frame's arrival less
#   the write of the 10 ms chunk holding the onset (the goals); audio timeline: the frame's t (its newest sample)
#   less the onset. A hit that never rises by 0.1 counts as never.
# - Spearman r of each band's light against the band-filtered mix's 20 ms RMS at every frame, offline; and how late
#   the light is: r at zero lag and at the lag (−20…100 ms, 1 ms steps) where the light at t best matches the ideal
#   at t − lag. Onset F per song too, and the drum hits lit live per song.
# - sustained tones (a vibrato chord, a tremolo organ, a swell from silence): onsets counted from 0.3 s after each
#   chord's attack (the swell from its start) to 0.5 s after its end.
# - CPU added: the live runs' CPU-seconds with accents over without (four runs of each, in two passes of four side
#   by side, summed).
#   As a check, the music piped 24 times over to `--input stdin` as fast as analyze reads it (best of 3 each
#   way): the difference per second of audio over the live CPU per second, a lower bound (a hot loop).
# Goals: F ≥ aubio's in each band; ≥ 95% of drum hits (ghost notes, velocity < 50, apart) lit within 50 ms,
# median delay ≤ 17 ms, 90th percentile ≤ 25 ms; Spearman r no lower than without accents; a best lag ≤ 10 ms
# in each band; no accent on
# sustained tones; CPU ≤ +10%. For unlit hits the table counts those whose light was already ≥ 0.9 (no room for
# a rise of 0.1).
# A MISS is a result, not a failure: the exit status is non-zero only when the benchmark could not run.
# Usage: LIGHTSHOW_BIN=path/to/lightshow Tests/Benchmarks/accents.sh (any build, with or without accents).
# LIGHTSHOW_BASELINE_BIN=path/to/another/lightshow adds two live runs of that build with accents to each pass, side
# by side with the others, and prints this build's CPU with accents against it.
set -euo pipefail

BIN=${LIGHTSHOW_BIN:-.build/release/lightshow}
[ -x "$BIN" ] || { echo "accents: no executable at $BIN (set LIGHTSHOW_BIN)" >&2; exit 1; }
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
here=$(cd "$(dirname "$0")/../.." && pwd)
# Keep in step with the Makefile's BENCH_PYTHON and BENCH_PYPI.
python_env=${BENCH_PYTHON:-$here/.build/bench-python}
"$here/scripts/install-packages.sh" fluidsynth fluid-soundfont-gm aubio-tools sox python3 python3-venv
"$here/scripts/install-python-packages.sh" "$python_env" mido==1.3.3 mir_eval==0.8.2

export PYTHONDONTWRITEBYTECODE=1    # nothing written into the source tree
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$python_env/bin/python3" -u "$here/Tests/Benchmarks/lib/accents/bench.py" "$BIN" "$work" "$here/Tests/Benchmarks/lib"
