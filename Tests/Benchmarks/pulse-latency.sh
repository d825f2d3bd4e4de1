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
set -euo pipefail

BIN=${LIGHTSHOW_BIN:-.build/release/lightshow}
ROUNDS=${ROUNDS:-8}
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

python3 - "$BIN" "$work" "$ROUNDS" <<'PY'
import array, math, os, signal, statistics, subprocess, sys, threading, time

binary, work, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
RATE, CHUNK = 44100, 441
PREROLL, BURST, GAP, TAIL = 3.0, 0.4, 1.2, 1.0
BANDS = [("bass", 100.0), ("mid", 1000.0), ("treble", 6000.0)]

frames, bursts = array.array("h"), []
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
analyze = [binary, "analyze", "--format", "ascii", "--fps", "60", "--player", "none", "--input"]
tools = {
    "pulse": start(analyze + ["pulse"]),
    "alsa:pulse": start(analyze + ["alsa:pulse"]),
    "cava pulse": start(["cava", "-p", f"{work}/cava.conf"]),
}
lines = {name: [] for name in tools}
def reader(name, stream):
    for raw in stream:
        stamp = time.monotonic()
        values = [int(v) for v in raw.decode(errors="replace").strip().split(";") if v.strip().isdigit()]
        if len(values) == 3:
            lines[name].append((stamp, values))
threads = [threading.Thread(target=reader, args=(n, p.stdout), daemon=True) for n, p in tools.items()]
for t in threads: t.start()
time.sleep(1.0)   # every reader connected before the first sound (the preroll is silence anyway)

player = subprocess.Popen(["pacat", "--playback", "-d", "speakers", "--raw", "--format=s16le", "--rate=44100",
                           "--channels=2", "--latency-msec=10"], stdin=subprocess.PIPE)
chunk_bytes = CHUNK * 4
written_at = {}
origin = time.monotonic()
for i in range(0, (total_frames + CHUNK - 1) // CHUNK):
    due = origin + i * CHUNK / RATE
    delay = due - time.monotonic()
    if delay > 0: time.sleep(delay)
    player.stdin.write(payload[i * chunk_bytes:(i + 1) * chunk_bytes])
    player.stdin.flush()
    written_at[i] = time.monotonic()
player.stdin.close()
player.wait()

usage = {}
for name, process in tools.items():
    process.send_signal(signal.SIGINT)
    _, _, rusage = os.wait4(process.pid, 0)
    usage[name] = rusage.ru_utime + rusage.ru_stime
for t in threads: t.join(timeout=5)

def latencies(name):
    series, found, misses = lines[name], [], 0
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

print(f"pulse-latency: {audio_seconds:.1f} s of 44.1 kHz s16 stereo through pacat into a PulseAudio null sink, "
      f"{len(bursts)} tone bursts ({', '.join(f'{n} {f:g} Hz' for n, f in BANDS)}), 60 fps ascii")
print(f"  {'':12} {'lines':>6} {'cpu s/s':>9} {'median ms':>10} {'max ms':>8} {'missed':>7}")
for name in tools:
    found, misses = latencies(name)
    cpu = usage[name] / audio_seconds
    median = statistics.median(found) * 1000 if found else float("nan")
    worst = max(found) * 1000 if found else float("nan")
    print(f"  {name:12} {len(lines[name]):6d} {cpu:9.4f} {median:10.1f} {worst:8.1f} {misses:7d}")
if not all(lines.values()):
    sys.exit("pulse-latency: a reader printed no frames")
PY
