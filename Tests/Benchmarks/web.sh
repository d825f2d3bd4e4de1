#!/usr/bin/env bash
# What the web page, the WebSocket and the HTTP server cost the daemon (README, "Web page and HTTP API"), each figure
# against its peer in the same run (lib/web_bench.py says how each is taken):
#   - RSS with [web] off against the daemon built before the web code (BASELINE_BIN, e.g. `make release` in a
#     worktree of 7063e56; the row is skipped without it): goal ≤ +0.5 MB;
#   - RSS and PSS with the page open in headless Chromium, and the browser's own CPU;
#   - the CPU with 100 WebSocket viewers at 30 fps, all of it (the part over no viewer beside it): goal ≤ 10% of one
#     core (the load generator's CPU is not counted);
# With [web] on, every CPU and memory figure is the daemon's and its web server process's (lightshow-web) together.
#   - frame → WebSocket client latency against a control-socket subscriber: goal median ≤ +5 ms;
#   - the frame rate of 20 viewers with and without one that stops reading: goal within ±5%.
# Runs in a network namespace of its own (as root) so the stalled viewer meets small socket buffers; elsewhere on
# the host's loopback.
set -euo pipefail

BIN=${LIGHTSHOW_BIN:-.build/release/lightshow}
BASE=${BASELINE_BIN:-}
# Debian's interpreter: python3-websockets is installed for it, not for another python3 earlier on PATH.
PYTHON=/usr/bin/python3
[ -x "$BIN" ] || { echo "web: no executable at $BIN (set LIGHTSHOW_BIN)" >&2; exit 1; }
[ -z "$BASE" ] || [ -x "$BASE" ] || { echo "web: no executable at BASELINE_BIN=$BASE" >&2; exit 1; }
for tool in chromium ss "$PYTHON"; do
    command -v "$tool" >/dev/null || { echo "web: $tool is missing (make deps-bench)" >&2; exit 1; }
done
"$PYTHON" -c 'import websockets' 2>/dev/null || { echo "web: python3-websockets is missing (make deps-bench)" >&2; exit 1; }
BIN=$(realpath "$BIN")
[ -z "$BASE" ] || BASE=$(realpath "$BASE")
bench=$(cd "$(dirname "$0")" && pwd)/lib/web_bench.py

# lib/web_bench.py starts every process itself and kills them all when it exits (each also dies with it).
if [ "$(id -u)" = 0 ] && unshare --net true 2>/dev/null; then
    exec unshare --net -- sh -c 'ip link set lo up && WEB_BENCH_NETNS=1 exec "$0" "$@"' "$PYTHON" "$bench" "$BIN" "$BASE"
fi
exec "$PYTHON" "$bench" "$BIN" "$BASE"
