#!/usr/bin/env bash
# Benchmark: network lights (README, "Real lights"; issue 15), all on 127.0.0.1 with a DDP receiver written here
# (WLED has no Debian package). It drives the real executable through its hidden `lightshow lights measure`,
# which feeds numbered frames (bass level (i mod 255 + 1)/255) to the configured outputs at a steady rate and
# prints when it handed each one over (CLOCK_MONOTONIC, the clock Python's time.monotonic_ns reads too).
#   1. frame → packet latency: DDP fixtures (white bass, gamma 1) at 60 fps fed at 60 fps; each frame matched to
#      the first packet carrying its value. Median and p99: the lights' own share of the audio → light path.
#   1b. audio onset → light, side by side with the terminal path in the same run: the paced tone bursts of
#      cava-live.sh (lib/bursts.py) written at once into `lightshow daemon` (three white DDP fixtures at 60 fps)
#      and `lightshow analyze` (the frames the terminal draws), both on fifos; latency from each burst's write to
#      its band's half rise, in the fixture's channel and in analyze's line. Goal: lights ≤ terminal + 5 ms.
#   1c. the sync offset: as 1, with `[output] delay = 200` and the output's own `delay = 50`, then with only its own
#      `delay = 120`; each run's median latency less run 1's. Goal: the configured offset ±2 ms. The same for a
#      WLED audio sync output (frames matched by sampleSmth, the bass level × 255), against its own undelayed run.
#   1d. audio onset → WLED audio sync beat: in 1b's daemon run, a `wled-sync` output beside the DDP fixtures; each
#      bass burst's write to the first packet with samplePeak set, against the DDP bass fixture's half rise.
#      Goal: within 1 ms of the DDP path (medians).
#   2. output rate jitter: a 300-pixel DDP strip at 44 fps fed at 60 fps; p99 interval between frames (PUSH
#      packets) against the nominal 22.7 ms. Goal: ≤ 1.5× nominal.
#   3. CPU per output: four 300-pixel strips at 44 fps against no output, same feed, for the same time; the
#      difference / 4, next to `lightshow analyze --input demo` (live analysis, real-time paced) over as long.
#      Goal: ≤ 20% of the live analysis cost.
#   4. the GEQ's cost: `lightshow analyze` of a 12-minute file with a `wled-sync` output configured (the analysis then
#      measures the GEQ and the peak) and without, seven pairs back to back on one core; the median difference in
#      CPU per second of audio over the live analysis' CPU per second from 3. Goal: ≤ 3% more.
set -euo pipefail

BIN=${LIGHTSHOW_BIN:-.build/release/lightshow}
SECONDS_EACH=${SECONDS_EACH:-10}
[ -x "$BIN" ] || { echo "lights-latency: no executable at $BIN (set LIGHTSHOW_BIN)" >&2; exit 1; }
here=$(cd "$(dirname "$0")/../.." && pwd)
"$here/scripts/install-packages.sh" python3

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 - "$BIN" "$work" "$SECONDS_EACH" "$here/Tests/Benchmarks/lib" <<'PY'
import os, signal, socket, statistics, struct, subprocess, sys, threading, time, wave

binary, work, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
sys.path.insert(0, sys.argv[4])
import bursts
from ddp_receiver import DDPReceiver as Receiver

class SyncReceiver(Receiver):
    """WLED audio sync on 127.0.0.1, decoded as WLED lays it out: (arrival, sampleSmth, samplePeak)."""
    def take(self, now, data):
        if len(data) == 44:
            _, _, smth, peak, _, _, _, _ = struct.unpack("<6s2xffBB16s2xff", data)
            self.packets.append((now, smth, peak))

def config(name, outputs, shared_delay=0):
    path = os.path.join(work, name)
    with open(path, "w") as f:
        f.write(f'[output]\ndelay = {shared_delay}\n[bands.bass]\ncolor = "#FFFFFF"\n')
        for entry in outputs:
            f.write("\n[[lights]]\n" + "".join(f"{k} = {v}\n" for k, v in entry.items()))
    return path

def measure(config_path, fps=60):
    """Runs `lights measure`; its frame lines and the CPU seconds it used (wait4's rusage)."""
    p = subprocess.Popen([binary, "lights", "measure", "--config", config_path, "--fps", str(fps), "--seconds", str(seconds)],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    out = p.stdout.read().decode()
    _, status, usage = os.wait4(p.pid, 0)
    if status != 0: sys.exit(f"lights-latency: lights measure failed with status {status}")
    frames = [tuple(map(int, line.split())) for line in out.splitlines() if line and not line.startswith("#")]
    return frames, usage.ru_utime + usage.ru_stime

def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]

def ddp(port, **extra):
    entry = {"protocol": '"ddp"', "address": '"127.0.0.1"', "port": port, "gamma": 1}
    entry.update(extra)
    return entry

def wled(port, **extra):
    entry = {"protocol": '"wled-sync"', "address": '"127.0.0.1"', "port": port}
    entry.update(extra)
    return entry

def frame_latencies(name, shared_delay=0, own_delay=0, sync=False):
    """Each frame `lights measure` handed over, matched to the first packet carrying its value (unique over 255
    frames, 4.25 s at 60 fps): the latencies in ms, and how many frames were handed over. DDP fixtures, or with
    `sync` a WLED audio sync output (the value is its sampleSmth)."""
    receiver = SyncReceiver() if sync else Receiver()
    light = wled(receiver.port, delay=own_delay) if sync else ddp(receiver.port, layout='"fixtures"', fps=60, delay=own_delay)
    frames, _ = measure(config(name, [light], shared_delay))
    time.sleep(0.3)
    receiver.stop()
    latencies, cursor = [], 0
    if sync:
        packets = [(now, round(smth), True, 0) for now, smth, _ in receiver.packets]
    else:
        packets = [p for p in receiver.packets if p[3] == 0]
    # A delayed frame's packet comes after those of the frames handed over in the delay before it.
    lookahead = 5 + int((shared_delay + own_delay) * 60 / 1000) + 5
    for index, sent in frames:
        value = index % 255 + 1
        while cursor < len(packets) and packets[cursor][0] < sent: cursor += 1
        for arrival, first, push, offset in packets[cursor:cursor + lookahead]:
            if first == value:
                latencies.append((arrival - sent) / 1e6)
                break
    return latencies, len(frames)

# 1. Latency.
latencies, handed = frame_latencies("latency.toml")
print(f"lights-latency: all on 127.0.0.1, {seconds:g} s a run, {binary}")
print(f"  frame → DDP packet latency (60 fps fed at 60 fps): {len(latencies)}/{handed} frames matched")
if latencies:
    print(f"    median {statistics.median(latencies):.3f} ms   p99 {percentile(latencies, 99):.3f} ms   max {max(latencies):.3f} ms")

# 1b. Audio onset → light against audio onset → terminal frame, the same bursts in one run.
payload, onsets, total_frames = bursts.signal(rounds=4, preroll=1.0)
os.mkfifo(f"{work}/daemon.fifo"); os.mkfifo(f"{work}/analyze.fifo"); os.mkdir(f"{work}/run")
receiver, sync_receiver = Receiver(), SyncReceiver()
white = "".join(f'[bands.{band}]\ncolor = "#FFFFFF"\n' for band in ("bass", "mid", "treble"))
with open(f"{work}/e2e.toml", "w") as f:
    f.write(white + "\n[[lights]]\n" + "".join(f"{k} = {v}\n" for k, v in ddp(receiver.port, layout='"fixtures"', fps=60).items()))
    f.write("\n[[lights]]\n" + "".join(f"{k} = {v}\n" for k, v in wled(sync_receiver.port).items()))
daemon = subprocess.Popen([binary, "daemon", "--config", f"{work}/e2e.toml", "--input", f"fifo:{work}/daemon.fifo",
                           "--player", "none", "--fps", "60"], env=dict(os.environ, XDG_RUNTIME_DIR=f"{work}/run"),
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
analyze = subprocess.Popen([binary, "analyze", "--config", f"{work}/e2e.toml", "--input", f"fifo:{work}/analyze.fifo",
                            "--player", "none", "--fps", "60", "--format", "ascii"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
lines, readers = bursts.read_lines({"analyze": analyze})
fds = [os.open(f"{work}/{name}.fifo", os.O_WRONLY) for name in ("daemon", "analyze")]
def write_both(_, chunk):
    for fd in fds: os.write(fd, chunk)
written_at = bursts.paced_write(payload, total_frames, write_both)
for fd in fds: os.close(fd)
for process in (daemon, analyze):
    process.send_signal(signal.SIGINT)
    process.wait()
for reader in readers: reader.join(timeout=2)
receiver.stop()
sync_receiver.stop()
# Each fixture's red channel is its band's level (white, gamma 1), on the analyze lines' 0…1000 scale.
light_series = [(now / 1e9, [round(data[3 * band] * 1000 / 255) for band in range(3)])
                for now, data in receiver.payloads if len(data) >= 9]
print(f"  audio onset → light vs → terminal frame ({len(onsets)} tone bursts across the bands, same run):")
bursts.header(width=22)
_, terminal = bursts.row("terminal (analyze)", lines["analyze"], 0, 1, onsets, written_at, width=22)
_, light = bursts.row("light (daemon → DDP)", light_series, 0, 1, onsets, written_at, width=22)
verdict = "met" if light <= terminal + 5 else "MISSED"
print(f"    lights {light - terminal:+.1f} ms against the terminal path (goal ≤ +5 ms: {verdict}); cpu columns not measured here")

# 1d. Audio onset → WLED audio sync beat, against the DDP bass fixture in the same run.
bass_bursts = [(band, onset) for band, onset in onsets if band == 0]
ddp_bass, _ = bursts.latencies(light_series, bass_bursts, written_at)
beats = []
for _, onset in bass_bursts:
    t0 = written_at[onset // bursts.CHUNK]
    beat = next((now / 1e9 for now, _, peak in sync_receiver.packets if peak >= 1 and t0 <= now / 1e9 <= t0 + bursts.BURST), None)
    if beat is not None: beats.append(beat - t0)
print(f"  audio onset → WLED audio sync beat vs → DDP bass fixture ({len(bass_bursts)} bass bursts, same run):")
if ddp_bass and beats:
    gap = (statistics.median(beats) - statistics.median(ddp_bass)) * 1000
    print(f"    beat packet median {statistics.median(beats) * 1000:.1f} ms ({len(beats)} found), DDP half rise "
          f"{statistics.median(ddp_bass) * 1000:.1f} ms: {gap:+.2f} ms (goal within 1 ms: {'met' if abs(gap) <= 1 else 'MISSED'})")
else:
    print(f"    not measured: {len(beats)} beats and {len(ddp_bass)} DDP rises found (MISSED)")

# 1c. The sync offset.
if latencies:
    print("  sync offset, frame → DDP packet median less the undelayed run's:")
    for shared_delay, own_delay in ((200, 50), (0, 120)):
        delayed, handed = frame_latencies(f"delay-{shared_delay}-{own_delay}.toml", shared_delay, own_delay)
        if not delayed:
            print(f"    [output] delay {shared_delay} + own {own_delay} ms: no frame matched of {handed}")
            continue
        moved = statistics.median(delayed) - statistics.median(latencies)
        offset = shared_delay + own_delay
        verdict = "met" if abs(moved - offset) <= 2 else "MISSED"
        print(f"    [output] delay {shared_delay} + own {own_delay} ms: {len(delayed)}/{handed} frames matched, moved "
              f"{moved:.2f} ms (p99 {percentile(delayed, 99) - statistics.median(latencies):.2f}); "
              f"goal {offset} ± 2 ms: {verdict}")
sync_latencies, handed = frame_latencies("sync.toml", sync=True)
if sync_latencies:
    print(f"  sync offset, frame → WLED audio sync packet median less its undelayed run's "
          f"({statistics.median(sync_latencies):.3f} ms, {len(sync_latencies)}/{handed} frames matched):")
    for shared_delay, own_delay in ((200, 50), (0, 120)):
        delayed, handed = frame_latencies(f"sync-delay-{shared_delay}-{own_delay}.toml", shared_delay, own_delay, sync=True)
        if not delayed:
            print(f"    [output] delay {shared_delay} + own {own_delay} ms: no frame matched of {handed}")
            continue
        moved = statistics.median(delayed) - statistics.median(sync_latencies)
        offset = shared_delay + own_delay
        print(f"    [output] delay {shared_delay} + own {own_delay} ms: {len(delayed)}/{handed} frames matched, moved "
              f"{moved:.2f} ms; goal {offset} ± 2 ms: {'met' if abs(moved - offset) <= 2 else 'MISSED'}")
else:
    print(f"  sync offset, WLED audio sync: no frame matched of {handed} (MISSED)")

# 2. Jitter at 44 fps.
receiver = Receiver()
measure(config("jitter.toml", [ddp(receiver.port, pixels=300, fps=44)]))
time.sleep(0.3)
receiver.stop()
pushes = [p[0] for p in receiver.packets if p[2]]
intervals = [(b - a) / 1e6 for a, b in zip(pushes, pushes[1:])]
nominal = 1000 / 44
if intervals:
    p99 = percentile(intervals, 99)
    verdict = "met" if p99 <= 1.5 * nominal else "MISSED"
    print(f"  output rate at 44 fps (300-pixel strip, fed at 60 fps): {len(pushes)} frames in {seconds:g} s")
    print(f"    interval median {statistics.median(intervals):.2f} ms   p99 {p99:.2f} ms   max {max(intervals):.2f} ms"
          f"   nominal {nominal:.2f} ms   (goal p99 ≤ {1.5 * nominal:.1f} ms: {verdict})")

# 3. CPU per output.
receiver = Receiver()
_, idle_cpu = measure(config("none.toml", []))
_, busy_cpu = measure(config("four.toml", [ddp(receiver.port, pixels=300, fps=44, start=1 + 300 * n) for n in range(4)]))
receiver.stop()
analyze = subprocess.Popen([binary, "analyze", "--input", "demo", "--fps", "60", "--format", "ascii"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
time.sleep(seconds)
analyze.send_signal(signal.SIGINT)
_, _, usage = os.wait4(analyze.pid, 0)
analysis_cpu = usage.ru_utime + usage.ru_stime
per_output = max(0.0, busy_cpu - idle_cpu) / 4
share = per_output / analysis_cpu if analysis_cpu > 0 else float("nan")
print(f"  CPU per output (300-pixel strip at 44 fps, 4 outputs vs none, {len(receiver.packets)} packets received):")
print(f"    {per_output / seconds * 100:.3f}% of a core ({per_output * 1000 / seconds:.2f} ms/s); live analysis "
      f"{analysis_cpu / seconds * 100:.2f}% of a core; ratio {share:.3f} (goal ≤ 0.20: {'met' if share <= 0.2 else 'MISSED'})")

# 4. The GEQ's cost: the same file analysed with and without a wled-sync output configured.
song = f"{work}/geq.wav"
with wave.open(song, "wb") as w:
    w.setnchannels(2); w.setsampwidth(2); w.setframerate(44100)
    tone, _, _ = bursts.signal(rounds=1, preroll=0)
    w.writeframes(tone * 125)
    audio_seconds = w.getnframes() / 44100
with open(f"{work}/geq-off.toml", "w") as f: f.write("")
with open(f"{work}/geq-on.toml", "w") as f: f.write("[[lights]]\n" + "".join(f"{k} = {v}\n" for k, v in wled(9).items()))
def analyze_cpu(config_path):
    p = subprocess.Popen(["taskset", "-c", "0", binary, "analyze", "--config", config_path, "--input", song, "--fps", "60",
                          "--format", "ascii"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(p.pid, 0)
    if status != 0: sys.exit(f"lights-latency: analyze failed with status {status}")
    return usage.ru_utime + usage.ru_stime
# Pairs run back to back share the machine's load; the median of their differences is the cost.
differences = []
for _ in range(7):
    off = analyze_cpu(f"{work}/geq-off.toml")
    differences.append(analyze_cpu(f"{work}/geq-on.toml") - off)
extra = statistics.median(differences) / audio_seconds
live = analysis_cpu / seconds
share = max(0.0, extra) / live if live > 0 else float("nan")
print(f"  GEQ cost ({audio_seconds:.0f} s file analysed with a wled-sync output and without, 7 pairs on one core; "
      f"differences {min(differences) * 1000:+.0f}…{max(differences) * 1000:+.0f} ms, offline analysis {off * 1000:.0f} ms):")
print(f"    median {extra * 1000:+.4f} ms of CPU per second of audio; live analysis {live * 1000:.2f} ms/s; "
      f"{share * 100:.2f}% more (goal ≤ 3%: {'met' if share <= 0.03 else 'MISSED'})")
PY
