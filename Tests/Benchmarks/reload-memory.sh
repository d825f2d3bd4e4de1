#!/usr/bin/env bash
# Memory kept by configuration reloads: `lightshow daemon --input demo --config FILE`, warmed up, then RELOADS
# reloads through its control socket, one connection each as `lightshow ctl reload` makes; its peer in the same run
# is the same daemon answering as many `status` requests, which keep nothing. Prints the growth of each in VmRSS and
# in private dirty memory (/proc/PID/smaps_rollup: the heap and every page the daemon alone wrote). Goal: reloads
# grow private dirty memory by under 50 kB. RSS also counts code pages: once start-up's are released
# (ResidentCode), each page of code a request runs for the first time comes back, a few hundred kB over a run
# whatever the requests keep, so RSS is shown but not judged.
set -euo pipefail

BIN=${LIGHTSHOW_BIN:-.build/release/lightshow}
RELOADS=${RELOADS:-5000}
WARMUP=${WARMUP:-500}
GOAL_KB=${GOAL_KB:-50}
command -v python3 >/dev/null || { echo "reload-memory: python3 is missing (make deps-bench)" >&2; exit 1; }
[ -x "$BIN" ] || { echo "reload-memory: no executable at $BIN (set LIGHTSHOW_BIN)" >&2; exit 1; }
BIN=$(realpath "$BIN")

T=$(mktemp -d /tmp/reload-memory.XXXXXX)
DAEMON=
cleanup() {
    [ -n "$DAEMON" ] && kill "$DAEMON" 2>/dev/null || true
    wait 2>/dev/null || true
    rm -rf "$T"
}
trap cleanup EXIT

# A config file, as a service has: a reload parses it each time.
printf '[output]\ndelay = 0\n[bands.bass]\ncolor = "#ff2000"\n' > "$T/lightshow.toml"
RUNTIME_DIRECTORY="$T" "$BIN" daemon --input demo --player none --config "$T/lightshow.toml" 2> "$T/daemon.log" & DAEMON=$!
for _ in $(seq 200); do [ -S "$T/control.sock" ] && break; sleep 0.05; done
[ -S "$T/control.sock" ] || { echo "reload-memory: the daemon did not listen" >&2; cat "$T/daemon.log" >&2; exit 1; }

# COUNT requests of CMD, a connection each; fails on the first reply that isn't ok.
ask() {
    python3 - "$T/control.sock" "$1" "$2" <<'PY'
import socket, sys
path, command, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
for _ in range(count):
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as client:
        client.settimeout(30)
        client.connect(path)
        client.sendall(('{"cmd":"%s"}\n' % command).encode())
        reply = b""
        while not reply.endswith(b"\n"):
            chunk = client.recv(65536)
            if not chunk:
                break
            reply += chunk
        if b'"ok":true' not in reply:
            sys.exit("reload-memory: %s answered %r" % (command, reply[:200]))
PY
}
kb() { awk -v key="$1:" '$1 == key { print $2 }' "/proc/$DAEMON/smaps_rollup"; }

ask reload "$WARMUP"
ask status "$WARMUP"
rss0=$(kb Rss); dirty0=$(kb Private_Dirty)
started=$SECONDS
ask status "$RELOADS"
rss1=$(kb Rss); dirty1=$(kb Private_Dirty)
ask reload "$RELOADS"
rss2=$(kb Rss); dirty2=$(kb Private_Dirty)
seconds=$((SECONDS - started))
kill -0 "$DAEMON" || { echo "reload-memory: the daemon died" >&2; cat "$T/daemon.log" >&2; exit 1; }

status_growth=$((rss1 - rss0)); reload_growth=$((rss2 - rss1)); reload_dirty=$((dirty2 - dirty1))
echo "reload-memory: $RELOADS requests each after $WARMUP of each to warm up, ${seconds} s"
row() { awk -v what="$1" -v rss="$2" -v dirty="$3" -v n="$RELOADS" \
    'BEGIN { printf "  %-7s RSS %+6d kB  private dirty %+6d kB  (%.1f bytes a request)\n", what, rss, dirty, rss * 1024 / n }'; }
row status "$status_growth" "$((dirty1 - dirty0))"
row reload "$reload_growth" "$((dirty2 - dirty1))"
if [ "$reload_dirty" -ge "$GOAL_KB" ]; then
    echo "reload-memory: reloads grew the daemon's private memory by $reload_dirty kB (goal: under $GOAL_KB kB)" >&2
    exit 1
fi
