#!/usr/bin/env bash
# Resident memory of `lightshow daemon` with MQTT off and on, side by side in one run: both play the demo input and
# drive nothing else; the second is connected to a private mosquitto on a loopback port and announces itself to Home
# Assistant. Off, libmosquitto must not be mapped at all (it is opened only when `[mqtt] broker` is set); the added
# RSS with it on is what MQTT costs. With BASELINE_BIN (another build, e.g. main's), a third daemon from it gives the
# off figure's peer: the goal is off ≤ baseline + 0.2 MB.
set -euo pipefail

BIN=${LIGHTSHOW_BIN:-.build/release/lightshow}
MEASURE=${MEASURE:-10}
command -v mosquitto >/dev/null || [ -x /usr/sbin/mosquitto ] || { echo "mqtt-memory: mosquitto is missing (make deps-bench)" >&2; exit 1; }
[ -x "$BIN" ] || { echo "mqtt-memory: no executable at $BIN (set LIGHTSHOW_BIN)" >&2; exit 1; }
BIN=$(realpath "$BIN")

T=$(mktemp -d /tmp/mqtt-memory.XXXXXX)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$T"
}
trap cleanup EXIT

PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
printf 'user %s\nlistener %s 127.0.0.1\nallow_anonymous true\npersistence false\n' "$(id -un)" "$PORT" > "$T/mosquitto.conf"
/usr/sbin/mosquitto -c "$T/mosquitto.conf" > /dev/null 2>&1 & pids+=($!)
printf '[input]\nsource = "demo"\n' > "$T/off.toml"
printf '[input]\nsource = "demo"\n[mqtt]\nbroker = "127.0.0.1:%s"\nbase_topic = "bench/lightshow"\n' "$PORT" > "$T/on.toml"

start_daemon() { # name binary config
    mkdir -p "$T/$1"
    RUNTIME_DIRECTORY="$T/$1" "$2" daemon --config "$3" --player none 2>"$T/$1.log" & pids+=($!)
    eval "$1=$!"
}
start_daemon off "$BIN" "$T/off.toml"
start_daemon on "$BIN" "$T/on.toml"
names="off on"
if [ -n "${BASELINE_BIN:-}" ]; then
    start_daemon baseline "$(realpath "$BASELINE_BIN")" "$T/off.toml"
    names="baseline off on"
fi

sleep "$MEASURE"
grep -q "MQTT: connected" "$T/on.log" || { echo "mqtt-memory: the daemon did not connect: $(cat "$T/on.log")" >&2; exit 1; }
if grep -q libmosquitto "/proc/$off/maps"; then echo "mqtt-memory: libmosquitto is mapped with MQTT off" >&2; exit 1; fi
grep -q libmosquitto "/proc/$on/maps" || { echo "mqtt-memory: libmosquitto is not mapped with MQTT on" >&2; exit 1; }

kb() { awk -v key="$2:" '$1 == key { print $2 }' "/proc/$1/smaps_rollup"; }
off_rss=$(kb "$off" Rss)
printf 'daemon memory after %d s of the demo (kB)\n' "$MEASURE"
printf '  %-10s %8s %8s %14s %12s\n' daemon RSS PSS "private dirty" "RSS - off"
for name in $names; do
    pid=${!name}
    rss=$(kb "$pid" Rss) pss=$(kb "$pid" Pss)
    dirty=$(awk '$1 == "Private_Dirty:" { print $2 }' "/proc/$pid/smaps_rollup")
    printf '  %-10s %8d %8d %14d %12d\n' "$name" "$rss" "$pss" "$dirty" "$((rss - off_rss))"
done
echo "  MQTT off maps no libmosquitto; 'on - off' is what MQTT adds; goal: off ≤ baseline + 200 kB"
