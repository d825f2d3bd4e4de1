#!/usr/bin/env bash
# Benchmark: capture latency from PulseAudio, three ways in the same run (issue 14).
# A private PulseAudio (as in the tests: a null sink `speakers` with norewinds=1, its monitor also the default
# source so that alsa:pulse records it too) plays the same paced tone bursts as cava-live.sh, written in real time
# into `pacat` on `speakers`. Three readers record it at once:
#   lightshow --input pulse         (libpulse, the default sink's monitor, ~10 ms fragments)
#   lightshow --input alsa:pulse    (ALSA's pulse plugin, the default source)
#   cava, pulse input on speakers.monitor (raw ascii, 3 bars, 60 fps)
# Every output line is timestamped on arrival. Reports CPU-seconds per second of audio, and the median and maximum
# latency from each burst's write to its band reaching half its rise. pacat's own buffering is in every figure alike.
# Then following the default sink (README: "within half a second"): `speakers` plays a steady 1 kHz tone and a
# second null sink, `headphones`, 6 kHz; `pactl set-default-sink` switches back and forth FOLLOWS times each way,
# each switch timed from pactl's start to the first of 10 frames in a row (60 fps) with the new sink's band lit
# (> 0.5; treble for headphones, mid for speakers). Both keep playing, so the show never pauses on silence and
# holds a light. Goal: every switch followed within 500 ms.
set -euo pipefail

BIN=${LIGHTSHOW_BIN:-.build/release/lightshow}
ROUNDS=${ROUNDS:-8}
FOLLOWS=${FOLLOWS:-10}
[ -x "$BIN" ] || { echo "pulse-latency: no executable at $BIN (set LIGHTSHOW_BIN)" >&2; exit 1; }
BIN=$(realpath "$BIN")
here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/Tests/Benchmarks/lib/cava.sh"
"$here/scripts/install-packages.sh" cava python3 pulseaudio pulseaudio-utils libasound2-plugins
command -v cava >/dev/null || { echo "pulse-latency: cava is not installed" >&2; exit 1; }

work=$(mktemp -d)
server_pid=""
cleanup() {
    [ -n "$server_pid" ] && kill -9 "$server_pid" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$work/pa"
cat > "$work/test.pa" <<PA
load-module module-native-protocol-unix auth-anonymous=1 socket=$work/pa/native
load-module module-null-sink sink_name=speakers rate=48000 channels=2 norewinds=1
set-default-sink speakers
set-default-source speakers.monitor
PA
echo "autospawn = no" > "$work/client.conf"
export PULSE_SERVER="unix:$work/pa/native" PULSE_CLIENTCONFIG="$work/client.conf"
HOME="$work" XDG_RUNTIME_DIR="$work/pa" XDG_CONFIG_HOME="$work/config" pulseaudio -n -F "$work/test.pa" \
    --daemonize=yes --exit-idle-time=-1 --use-pid-file=no --disallow-exit --log-target=syslog
for _ in $(seq 100); do pactl info >/dev/null 2>&1 && break; sleep 0.1; done
server_pid=$(pgrep -f -- "-F $work/test.pa" | head -1)
write_cava_pulse_config "$work/cava.conf" speakers.monitor /dev/stdout

python3 - "$BIN" "$work" "$ROUNDS" "$here/Tests/Benchmarks/lib" "$FOLLOWS" <<'PY'
import array, math, os, signal, statistics, subprocess, sys, threading, time
sys.path.insert(0, sys.argv[4])
from bursts import BANDS, header, paced_write, read_lines, row, signal as burst_signal

binary, work, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
payload, bursts, total_frames = burst_signal(rounds, preroll=3.0)
audio_seconds = total_frames / 44100

def start(command):
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
analyze = [binary, "analyze", "--format", "ascii", "--fps", "60", "--player", "none", "--input"]
tools = {
    "pulse": start(analyze + ["pulse"]),
    "alsa:pulse": start(analyze + ["alsa:pulse"]),
    "cava pulse": start(["cava", "-p", f"{work}/cava.conf"]),
}
lines, threads = read_lines(tools)
time.sleep(1.0)   # every reader connected before the first sound (the preroll is silence anyway)

player = subprocess.Popen(["pacat", "--playback", "-d", "speakers", "--raw", "--format=s16le", "--rate=44100",
                           "--channels=2", "--latency-msec=10"], stdin=subprocess.PIPE)
def write(_, piece):
    player.stdin.write(piece)
    player.stdin.flush()
written_at = paced_write(payload, total_frames, write)
player.stdin.close()
player.wait()

usage = {}
for name, process in tools.items():
    process.send_signal(signal.SIGINT)
    _, _, rusage = os.wait4(process.pid, 0)
    usage[name] = rusage.ru_utime + rusage.ru_stime
for t in threads: t.join(timeout=5)

print(f"pulse-latency: {audio_seconds:.1f} s of 44.1 kHz s16 stereo through pacat into a PulseAudio null sink, "
      f"{len(bursts)} tone bursts ({', '.join(f'{n} {f:g} Hz' for n, f in BANDS)}), 60 fps ascii")
header(12)
for name in tools:
    row(name, lines[name], usage[name], audio_seconds, bursts, written_at, width=12)
if not all(lines.values()):
    sys.exit("pulse-latency: a reader printed no frames")

# Following the default sink.
follows = int(sys.argv[5])
subprocess.run(["pactl", "load-module", "module-null-sink", "sink_name=headphones", "rate=48000", "channels=2",
                "norewinds=1"], check=True, stdout=subprocess.DEVNULL)
def steady(frequency, sink):
    """pacat playing `frequency` to `sink` for as long as the benchmark runs: 147 samples are a whole number of
    periods of 1 and 6 kHz at 44.1 kHz."""
    cycle = array.array("h")
    for n in range(147):
        value = int(0.5 * 32767 * math.sin(2 * math.pi * frequency * n / 44100))
        cycle.extend((value, value))
    player = subprocess.Popen(["pacat", "--playback", "-d", sink, "--raw", "--format=s16le", "--rate=44100",
                               "--channels=2"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    second = cycle.tobytes() * 300
    def feed():
        try:
            while True:
                player.stdin.write(second)
                player.stdin.flush()
        except (BrokenPipeError, ValueError):
            pass
    threading.Thread(target=feed, daemon=True).start()
    return player
tones = [steady(1000, "speakers"), steady(6000, "headphones")]
follower = start(analyze + ["pulse"])
series, readers = read_lines({"follower": follower})

def settled(after, band, timeout=10.0):
    """Arrival of the first of 10 frames in a row after `after` with `band` (0…2) lit, else None."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        count = 0
        for arrival, levels in list(series["follower"]):
            if arrival < after:
                continue
            count = count + 1 if levels[band] > 500 else 0
            if count == 1:
                run_start = arrival
            if count >= 10:
                return run_start
        time.sleep(0.02)
    return None

if settled(time.monotonic(), band=1) is None:
    sys.exit("pulse-latency: the follower never showed the speakers' 1 kHz")
took = []
for index in range(2 * follows):
    to_headphones = index % 2 == 0
    band = 2 if to_headphones else 1
    # The band to light must be dark first: a light still fading from before would count as lit at once.
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and not (series["follower"] and series["follower"][-1][1][band] < 50):
        time.sleep(0.02)
    switched = time.monotonic()
    subprocess.run(["pactl", "set-default-sink", "headphones" if to_headphones else "speakers"], check=True)
    arrived = settled(switched, band)
    took.append(math.inf if arrived is None else arrived - switched)
follower.send_signal(signal.SIGINT)
follower.wait()
for player in tones:
    player.kill()
ms = sorted(1000 * t for t in took)
verdict = "met" if ms[-1] <= 500 else "MISSED"
print(f"following the default sink: {len(took)} switches (speakers ⇄ headphones), pactl start → 10 frames settled: "
      f"median {statistics.median(ms):.0f} ms, max {ms[-1]:.0f} ms (goal every switch ≤ 500 ms: {verdict})")
PY
