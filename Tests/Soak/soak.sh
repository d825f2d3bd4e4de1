#!/usr/bin/env bash
# Soak: the daemon for SOAK_SECONDS (default 3600) at 60 fps, fed by a real MPD through its fifo output, with two
# subscribers, `ctl status` every second, a reload every 5 s (good and bad files in turn) and MPD killed (SIGKILL)
# and restarted every minute. Reports RSS and open fds at the start (after a warm-up) and the end, and failures.
# Usage: Tests/Soak/soak.sh [LIGHTSHOW_BINARY]    (make soak: the release binary; SOAK_SECONDS=300 for a short run)
# Exit status: 0 when nothing failed (no failed status, no unexpected reload result, daemon and subscribers alive).
set -uo pipefail
ls="$(realpath "${1:-.build/release/lightshow}")"
seconds="${SOAK_SECONDS:-3600}"
# The start figures are taken once every path has run: reloads good and bad, status, and the first MPD restart (at
# 60 s). Code pages a path touches the first time (the show maps its code page by page, see ResidentCode) are not
# growth.
warmup="${SOAK_WARMUP:-90}"
work="$(mktemp -d /tmp/lightshow-soak.XXXXXX)"
pids=()
mpd_pid=""
cleanup() {
    for pid in "${pids[@]}" $mpd_pid; do kill "$pid" 2>/dev/null; done
    wait 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
mkdir -p "$work/music" "$work/playlists"
sox -n -c 2 -r 44100 "$work/music/beat.flac" synth 30 sine 80 sine 440 >/dev/null 2>&1 || { echo "soak: sox failed" >&2; exit 1; }
cat >"$work/mpd.conf" <<EOF
music_directory "$work/music"
playlist_directory "$work/playlists"
db_file "$work/mpd.db"
state_file "$work/mpd.state"
log_file "$work/mpd.log"
bind_to_address "127.0.0.1"
port "$port"
audio_output {
    type "fifo"
    name "fifo"
    path "$work/mpd.fifo"
    format "44100:16:2"
}
EOF
mpc() { command mpc -q -h 127.0.0.1 -p "$port" "$@"; }
start_mpd() {
    mpd --no-daemon "$work/mpd.conf" >/dev/null 2>&1 &
    mpd_pid=$!
    for _ in $(seq 1 100); do mpc status >/dev/null 2>&1 && break; sleep 0.1; done
    mpc play >/dev/null 2>&1
}
start_mpd
mpc update --wait && mpc add beat.flac && mpc repeat on && mpc play || { echo "soak: MPD setup failed" >&2; exit 1; }

good=$'[input]\nsource = "fifo:'"$work"$'/mpd.fifo"\n[mpd]\naddress = "127.0.0.1:'"$port"$'"\n[control]\nsocket = "'"$work"$'/control.sock"\n'
bad="$good"$'[bands.bass]\nupper = 99999\n'
printf '%s' "$good" >"$work/lightshow.toml"
"$ls" daemon --config "$work/lightshow.toml" --fps 60 >"$work/daemon.log" 2>&1 &
daemon=$!
pids+=("$daemon")
ctl() { "$ls" ctl --socket "$work/control.sock" --timeout 10s "$@"; }
for _ in $(seq 1 100); do ctl status >/dev/null 2>&1 && break; sleep 0.1; done
for _ in 1 2; do
    "$ls" ctl --socket "$work/control.sock" subscribe --fps 60 >/dev/null 2>"$work/subscriber.log" &
    pids+=("$!")
done
subscribers=("${pids[@]:1}")

rss() { awk '/^VmRSS:/ { print $2 }' "/proc/$daemon/status" 2>/dev/null; }
fds() { ls "/proc/$daemon/fd" 2>/dev/null | wc -l; }
rss_ready="$(rss)"
status_ok=0 status_failed=0 reloads_ok=0 reloads_unexpected=0 mpd_restarts=0
rss_start="" fds_start="" fds_max=0
start="$(date +%s)"
echo "soak: daemon $daemon, MPD on port $port, ${seconds} s (warm-up ${warmup} s); RSS when ready ${rss_ready} kB"
tick=0
while [ $(( $(date +%s) - start )) -lt "$seconds" ]; do
    # On the second, whatever the last round took.
    while [ "$(date +%s)" -lt $((start + tick + 1)) ]; do sleep 0.05; done
    tick=$((tick + 1))
    kill -0 "$daemon" 2>/dev/null || { echo "soak: the daemon died after $tick s" >&2; break; }
    if ctl status >/dev/null 2>>"$work/status-errors.log"; then status_ok=$((status_ok + 1)); else status_failed=$((status_failed + 1)); fi
    if [ $((tick % 5)) -eq 0 ]; then
        # Good and bad files in turn: a good one must reload (0), a bad one must be refused (78).
        if [ $((tick / 5 % 2)) -eq 0 ]; then printf '%s' "$good" >"$work/lightshow.toml"; want=0
        else printf '%s' "$bad" >"$work/lightshow.toml"; want=78; fi
        ctl reload >/dev/null 2>&1; got=$?
        if [ "$got" -eq "$want" ]; then reloads_ok=$((reloads_ok + 1)); else reloads_unexpected=$((reloads_unexpected + 1)); fi
    fi
    if [ $((tick % 60)) -eq 0 ]; then
        kill -KILL "$mpd_pid" 2>/dev/null; wait "$mpd_pid" 2>/dev/null
        start_mpd
        mpd_restarts=$((mpd_restarts + 1))
    fi
    if [ "$tick" -eq "$warmup" ]; then rss_start="$(rss)"; fds_start="$(fds)"; fi
    n="$(fds)"; [ "${n:-0}" -gt "$fds_max" ] && fds_max="$n"
done
rss_end="$(rss)" fds_end="$(fds)"
alive=yes; kill -0 "$daemon" 2>/dev/null || alive=no
subs_alive=0; for pid in "${subscribers[@]}"; do kill -0 "$pid" 2>/dev/null && subs_alive=$((subs_alive + 1)); done
growth=$(( ${rss_end:-0} - ${rss_start:-${rss_ready:-0}} ))
echo "soak: ran $tick s; daemon alive: $alive; subscribers alive: $subs_alive/2"
echo "soak: RSS ready ${rss_ready} kB, after warm-up ${rss_start:-n/a} kB, end ${rss_end:-n/a} kB (growth ${growth} kB)"
echo "soak: open fds after warm-up ${fds_start:-n/a}, end ${fds_end:-n/a}, most ${fds_max}"
echo "soak: status ok ${status_ok}, failed ${status_failed}; reloads as expected ${reloads_ok}, unexpected ${reloads_unexpected}; MPD restarts ${mpd_restarts}"
[ -s "$work/status-errors.log" ] && { echo "soak: status errors:"; sort "$work/status-errors.log" | uniq -c | head -5; }
grep -ciE 'fatal|crash' "$work/daemon.log" | sed 's/^/soak: fatal or crash lines in the daemon log: /'
[ "$alive" = yes ] && [ "$subs_alive" = 2 ] && [ "$status_failed" = 0 ] && [ "$reloads_unexpected" = 0 ]
