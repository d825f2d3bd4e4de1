#!/usr/bin/env bash
# Benchmark: Philips Hue (README, "Philips Hue"; issue 37), all on 127.0.0.1 with the tests' stand-in bridge
# (Tests/Peers/hue_bridge.py, HTTPS) and a real DTLS 1.2 PSK peer (`openssl s_server -dtls1_2 -nocert -psk …`).
# A UDP relay written here sits between lightshow and the peer and stamps each datagram lightshow sends
# (CLOCK_MONOTONIC, as `lightshow lights measure` stamps each frame it hands over); the peer decrypts the same
# records in the same order, so the k-th application-data record carries the k-th HueStream message.
#   1. frame → DTLS record: a Hue area (three channels, white bass, gamma 1) at 50 fps fed at 50 fps; each frame
#      matched to the first record carrying its value. In the same run, fed the same frames, the DDP path: three DDP
#      fixtures at 50 fps, each frame matched to the first packet carrying its value. Goal: Hue median ≤ DDP
#      median + 2 ms.
#   2. CPU per Hue output: one Hue output against no output, same feed, same time (startup, pairing file,
#      handshake included); next to one DDP output measured the same way.
set -euo pipefail

BIN=${LIGHTSHOW_BIN:-.build/release/lightshow}
SECONDS_EACH=${SECONDS_EACH:-10}
[ -x "$BIN" ] || { echo "hue: no executable at $BIN (set LIGHTSHOW_BIN)" >&2; exit 1; }
here=$(cd "$(dirname "$0")/../.." && pwd)
"$here/scripts/install-packages.sh" python3 openssl libssl3 libcurl4

work=$(mktemp -d)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT

# The stand-in bridge, with a certificate of its own.
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 -subj /CN=001788fffe123456 \
    -keyout "$work/key.pem" -out "$work/cert.pem" 2>/dev/null
/usr/bin/python3 "$here/Tests/Peers/hue_bridge.py" "$work" 0 0 2>"$work/bridge.log" &
pids+=($!)
for _ in $(seq 100); do [ -f "$work/port" ] && break; sleep 0.1; done
[ -f "$work/port" ] || { echo "hue: the stand-in bridge did not start: $(cat "$work/bridge.log")" >&2; exit 1; }
bridge="127.0.0.1:$(cat "$work/port")"
STATE_DIRECTORY="$work/state" "$BIN" lights pair-hue "$bridge" >/dev/null

/usr/bin/python3 - "$BIN" "$work" "$SECONDS_EACH" "$bridge" "$here/Tests/Benchmarks/lib" <<'PY'
import os, socket, statistics, subprocess, sys, threading, time

binary, work, seconds, bridge = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
sys.path.insert(0, sys.argv[5])
from ddp_receiver import DDPReceiver as Receiver
KEY, IDENTITY = "0123456789abcdef0123456789abcdef", "7f6e5d4c-3b2a-4190-8f7e-6d5c4b3a2910"
FPS = 50

def free_udp_port():
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]

class Relay:
    """UDP between lightshow and the DTLS peer: stamps every datagram lightshow sends (time, content type)."""
    def __init__(self, peer_port):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.peer = ("127.0.0.1", peer_port)
        self.client, self.records, self.running = None, [], True
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()
    def run(self):
        while self.running:
            try: data, source = self.sock.recvfrom(65536)
            except socket.timeout: continue
            now = time.monotonic_ns()
            if source == self.peer:
                if self.client: self.sock.sendto(data, self.client)
            else:
                self.client = source
                self.records.append((now, data[0]))
                self.sock.sendto(data, self.peer)
    def stop(self):
        self.running = False
        self.thread.join()
        self.sock.close()

def config(name, outputs):
    path = os.path.join(work, name)
    with open(path, "w") as f:
        f.write('[bands.bass]\ncolor = "#FFFFFF"\n')
        for entry in outputs:
            f.write("\n[[lights]]\n" + "".join(f"{k} = {v}\n" for k, v in entry.items()))
    return path

def measure(config_path):
    """Runs `lights measure`; its frame lines and the CPU seconds it used (wait4's rusage)."""
    p = subprocess.Popen([binary, "lights", "measure", "--config", config_path, "--fps", str(FPS), "--seconds", str(seconds)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=dict(os.environ, STATE_DIRECTORY=f"{work}/state"))
    out, err = p.communicate()
    if p.returncode != 0: sys.exit(f"hue: lights measure failed with status {p.returncode}: {err.decode()[-2000:]}")
    frames = [tuple(map(int, line.split())) for line in out.decode().splitlines() if line and not line.startswith("#")]
    return frames

def measure_cpu(config_path):
    p = subprocess.Popen([binary, "lights", "measure", "--config", config_path, "--fps", str(FPS), "--seconds", str(seconds)],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=dict(os.environ, STATE_DIRECTORY=f"{work}/state"))
    _, status, usage = os.wait4(p.pid, 0)
    if status != 0: sys.exit(f"hue: lights measure failed with status {status}")
    return usage.ru_utime + usage.ru_stime

def hue(stream_port):
    return {"protocol": '"hue"', "address": f'"{bridge}"', "area": '"Living room"', "stream_port": stream_port, "fps": FPS, "gamma": 1}

def ddp(port):
    return {"protocol": '"ddp"', "address": '"127.0.0.1"', "port": port, "layout": '"fixtures"', "fps": FPS, "gamma": 1}

def match(frames, arrivals):
    """Each frame handed over, matched to the first arrival at or after it carrying its value: latencies in ms."""
    latencies, cursor = [], 0
    for index, sent in frames:
        value = index % 255 + 1
        while cursor < len(arrivals) and arrivals[cursor][0] < sent: cursor += 1
        for arrival, first, *_ in arrivals[cursor:cursor + 10]:
            if first == value:
                latencies.append((arrival - sent) / 1e6)
                break
    return latencies

def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]

def split_huestream(data):
    starts, index = [], data.find(b"HueStream")
    while index >= 0:
        starts.append(index)
        index = data.find(b"HueStream", index + 9)
    return [data[s:(starts[i + 1] if i + 1 < len(starts) else len(data))] for i, s in enumerate(starts)]

# 1. One run with both outputs, fed the same frames: the relay stamps the Hue records (the peer decrypts them),
# the receiver the DDP packets.
peer_port = free_udp_port()
stream = open(f"{work}/stream.bin", "wb")
peer = subprocess.Popen(["openssl", "s_server", "-dtls1_2", "-accept", f"127.0.0.1:{peer_port}", "-nocert", "-psk", KEY,
                         "-psk_identity", IDENTITY, "-cipher", "PSK-AES128-GCM-SHA256", "-quiet"],
                        stdin=subprocess.PIPE, stdout=stream, stderr=subprocess.DEVNULL)
time.sleep(0.5)
relay = Relay(peer_port)
receiver = Receiver()
frames = measure(config("both.toml", [hue(relay.port), ddp(receiver.port)]))
time.sleep(0.5)
relay.stop()
receiver.stop()
peer.kill()
peer.wait()
stream.close()
messages = split_huestream(open(f"{work}/stream.bin", "rb").read())
records = [(t, kind) for t, kind in relay.records if kind == 23]
paired = min(len(messages), len(records))
# Channel 0 (the bass, at the left): its red's high byte is the frame's value.
hue_arrivals = [(records[k][0], messages[k][52 + 1]) for k in range(paired) if len(messages[k]) >= 52 + 7 and messages[k][52] == 0]
hue_latencies = match(frames, hue_arrivals)
ddp_latencies = match(frames, receiver.packets)
hue_frames = ddp_frames = frames

print(f"hue: all on 127.0.0.1, {seconds:g} s a run, {FPS} fps fed at {FPS} fps, {binary}")
print(f"  {len(messages)} HueStream messages decrypted by openssl s_server, {len(records)} application-data records relayed")
if not hue_latencies or not ddp_latencies:
    sys.exit(f"hue: nothing matched (hue {len(hue_latencies)}, ddp {len(ddp_latencies)})")
hue_median, ddp_median = statistics.median(hue_latencies), statistics.median(ddp_latencies)
print(f"  frame → DTLS record: {len(hue_latencies)}/{len(hue_frames)} frames matched, median {hue_median:.3f} ms, "
      f"p99 {percentile(hue_latencies, 99):.3f} ms, max {max(hue_latencies):.3f} ms")
print(f"  frame → DDP packet:  {len(ddp_latencies)}/{len(ddp_frames)} frames matched, median {ddp_median:.3f} ms, "
      f"p99 {percentile(ddp_latencies, 99):.3f} ms, max {max(ddp_latencies):.3f} ms")
verdict = "met" if hue_median <= ddp_median + 2 else "MISSED"
print(f"  Hue - DDP median: {hue_median - ddp_median:+.3f} ms (goal ≤ +2 ms: {verdict})")

# 2. CPU per output, one Hue and one DDP output against none.
peer = subprocess.Popen(["openssl", "s_server", "-dtls1_2", "-accept", f"127.0.0.1:{peer_port}", "-nocert", "-psk", KEY,
                         "-psk_identity", IDENTITY, "-cipher", "PSK-AES128-GCM-SHA256", "-quiet"],
                        stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
time.sleep(0.5)
none_cpu = measure_cpu(config("none.toml", []))
hue_cpu = measure_cpu(config("hue-cpu.toml", [hue(peer_port)]))
receiver = Receiver()
ddp_cpu = measure_cpu(config("ddp-cpu.toml", [ddp(receiver.port)]))
receiver.stop()
peer.kill()
peer.wait()
added_hue, added_ddp = max(0.0, hue_cpu - none_cpu), max(0.0, ddp_cpu - none_cpu)
print(f"  CPU added per output over {seconds:g} s: Hue {added_hue:.3f} s ({added_hue / seconds * 100:.2f}% of a core), "
      f"DDP {added_ddp:.3f} s ({added_ddp / seconds * 100:.2f}% of a core); no output {none_cpu:.3f} s")
if verdict != "met": sys.exit(1)
PY
