#!/usr/bin/env bash
# Boots a real systemd (PID 1 of a systemd-nspawn container, Debian bookworm made by debootstrap)
# and exercises the lightshow system unit (and, if present, the user unit) under it; or, given DEB, installs,
# upgrades, removes and purges the Debian package under it (scripts/systemd-container-deb.sh).
#
# Usage: LS=/path/to/lightshow UNIT=/path/to/lightshow.service [USER_UNIT=/path/to/lightshow-user.service] \
#        [WORK=DIR] [SWIFT_DIR=DIR] [MIRROR=URL] [KEEP=0] [QUICK=0] systemd-container.sh
#    or: DEB=lightshow_V_ARCH.deb DEB_NEXT=lightshow_V2_ARCH.deb [WORK=DIR] [MIRROR=URL] [KEEP=0] systemd-container.sh
#   WORK       where the cached root (WORK/base) and the per-run copy (WORK/run) live
#   DEB        the package to install (a root without its libraries: apt must resolve Depends);
#   DEB_NEXT   a newer build of it, for the upgrade
#   KEEP=1     leave WORK/run (the booted copy) on disk after the run, for inspection
#   QUICK=1    skip the slow checks (30 s watchdog soak, watchdog-kill restart, user unit)
# Prints one "RESULT <check>: PASS|FAIL|WARN|INFO  detail" line per check, details in WORK/last-run/.
# Exit status: 0 when no check FAILed, 1 otherwise, 2 when the container could not be booted.
# Cleans up everything it started: the container (poweroff, then SIGTERM/SIGKILL by PID), its cgroups,
# the per-run root copy and nspawn's /run/systemd/nspawn leftovers.
set -uo pipefail

MODE=unit
if [ -n "${DEB:-}" ]; then
    MODE=deb
    : "${DEB_NEXT:?set DEB_NEXT=/path/to/a/newer/lightshow.deb}"
    DEB="$(realpath "$DEB")"; DEB_NEXT="$(realpath "$DEB_NEXT")"
else
    : "${LS:?set LS=/path/to/lightshow (or DEB= for the package)}"
    : "${UNIT:?set UNIT=/path/to/lightshow.service}"
    LS="$(realpath "$LS")"; UNIT="$(realpath "$UNIT")"
    USER_UNIT="${USER_UNIT-$(dirname "$UNIT")/lightshow-user.service}"
fi
if [ "$MODE" = deb ]; then WORK="${WORK:-${TMPDIR:-/tmp}/lightshow-systemd-deb}"
else WORK="${WORK:-${TMPDIR:-/tmp}/lightshow-systemd}"; fi
# the Swift toolchain the binary was built with (its runtime is bind-mounted read-only into the container)
SWIFT_DIR="${SWIFT_DIR:-$(dirname "$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")")}"
KEEP="${KEEP:-0}"
QUICK="${QUICK:-0}"
BASE="$WORK/base"
RUNROOT="$WORK/run"
LOGDIR="$WORK/last-run"
MACHINE=sdtest
PKGS="systemd,systemd-sysv,dbus,procps,libfftw3-single3,libsndfile1,libasound2,libfreetype6,zlib1g,libpng16-16,libbrotli1,libstdc++6,libpam-systemd,libnss-systemd"
ROOT_STAMP="bookworm minbase $PKGS v4"
if [ "$MODE" = deb ]; then
    # none of lightshow's libraries: installing the package must bring them (its Depends and Recommends)
    MACHINE=sdtest-deb
    PKGS="systemd,systemd-sysv,dbus,procps,libpam-systemd,libnss-systemd"
    ROOT_STAMP="bookworm minbase $PKGS apt-lists v1"
fi
SCRIPTS="$(dirname "$(realpath "$0")")"

[ "$(id -u)" = 0 ] || { echo "systemd-container: must run as root" >&2; exit 2; }
if [ "$MODE" = deb ]; then
    for d in "$DEB" "$DEB_NEXT"; do [ -f "$d" ] || { echo "systemd-container: $d missing" >&2; exit 2; }; done
else
    [ -x "$LS" ] || { echo "systemd-container: LS=$LS is not executable" >&2; exit 2; }
    [ -f "$UNIT" ] || { echo "systemd-container: UNIT=$UNIT missing" >&2; exit 2; }
fi
mkdir -p "$WORK"
exec 9>"$WORK/.lock"
flock -n 9 || { echo "systemd-container: another run holds $WORK/.lock" >&2; exit 2; }
rm -rf "$LOGDIR"; mkdir -p "$LOGDIR"

FAILS=0
result() { # result CHECK STATUS DETAIL...
    local check="$1" st="$2"; shift 2
    [ "$st" = FAIL ] && FAILS=$((FAILS + 1))
    printf 'RESULT %-24s %-4s  %s\n' "$check:" "$st" "$*"
}
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
secs() { awk -v ms="$1" 'BEGIN { printf "%.2fs", ms / 1000 }'; }

# ---------------------------------------------------------------- host prerequisites
need=()
command -v systemd-nspawn >/dev/null || need+=(systemd-container)
command -v debootstrap >/dev/null || need+=(debootstrap)
command -v bpftool >/dev/null || need+=(bpftool)
if [ ${#need[@]} -gt 0 ]; then
    echo "systemd-container: installing on the host: ${need[*]}"
    apt-get update -q >"$LOGDIR/apt-update.log" 2>&1
    # --no-install-recommends: keeps libnss-mymachines (which edits nsswitch.conf) off the host
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${need[@]}" \
        >"$LOGDIR/apt-install.log" 2>&1 || { echo "systemd-container: apt-get install failed, see $LOGDIR/apt-install.log" >&2; exit 2; }
fi

if [ -z "${MIRROR:-}" ]; then
    MIRROR="$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/debian.sources 2>/dev/null)"
    [ -n "$MIRROR" ] || MIRROR="$(awk '$1 == "deb" && $3 ~ /^bookworm$/ { print $2; exit }' /etc/apt/sources.list 2>/dev/null)"
    [ -n "$MIRROR" ] || { echo "systemd-container: no Debian mirror found in the apt sources: set MIRROR=" >&2; exit 2; }
fi

# ---------------------------------------------------------------- cached root
if [ -f "$BASE/.sdtest-stamp" ] && [ "$(cat "$BASE/.sdtest-stamp")" = "$ROOT_STAMP" ]; then
    result root-build INFO "reused cached root $BASE ($(du -sh "$BASE" | cut -f1))"
else
    rm -rf "$BASE" "$BASE.tmp"; mkdir -p "$WORK/debcache"
    t0=$(now_ms)
    if ! debootstrap --variant=minbase --include="$PKGS" --cache-dir="$WORK/debcache" \
            bookworm "$BASE.tmp" "$MIRROR" >"$LOGDIR/debootstrap.log" 2>&1; then
        result root-build FAIL "debootstrap failed, see $LOGDIR/debootstrap.log"; rm -rf "$BASE.tmp"; exit 2
    fi
    echo "$MACHINE" >"$BASE.tmp/etc/hostname"
    # debootstrap writes no /etc/hosts; every real install has one (else "localhost" does not resolve)
    printf '127.0.0.1\tlocalhost\n::1\t\tlocalhost ip6-localhost ip6-loopback\n127.0.1.1\t%s\n' "$MACHINE" >"$BASE.tmp/etc/hosts"
    chroot "$BASE.tmp" useradd -m -s /bin/bash -G audio tester
    # fewer units at boot: no timers that might start apt or scrubbing mid-test
    for u in apt-daily.timer apt-daily-upgrade.timer dpkg-db-backup.timer e2scrub_all.timer e2scrub_reap.service \
             systemd-tmpfiles-clean.timer; do
        ln -sf /dev/null "$BASE.tmp/etc/systemd/system/$u"
    done
    rm -f "$BASE.tmp/etc/machine-id"; : >"$BASE.tmp/etc/machine-id"
    if [ "$MODE" = deb ]; then
        # package lists, so apt can resolve the package's Depends (the container itself has no network)
        cp /etc/resolv.conf "$BASE.tmp/etc/resolv.conf"
        chroot "$BASE.tmp" apt-get update -q >"$LOGDIR/apt-lists.log" 2>&1 \
            || { result root-build FAIL "apt-get update in the root failed, see $LOGDIR/apt-lists.log"; rm -rf "$BASE.tmp"; exit 2; }
    fi
    apt-get -o Dir="$BASE.tmp" clean >/dev/null 2>&1 || rm -rf "$BASE.tmp"/var/cache/apt/archives/*.deb
    echo "$ROOT_STAMP" >"$BASE.tmp/.sdtest-stamp"
    mv "$BASE.tmp" "$BASE"
    result root-build INFO "debootstrap bookworm from $MIRROR in $(secs $(( $(now_ms) - t0 ))) ($(du -sh "$BASE" | cut -f1))"
fi

# ---------------------------------------------------------------- per-run copy of the root
cleanup_done=0
NSPID=""; CPID=""; CGDIR=""; NSPAWN_RUN_CREATED=0
[ -e /run/systemd/nspawn ] || NSPAWN_RUN_CREATED=1

cleanup() {
    [ "$cleanup_done" = 1 ] && return; cleanup_done=1
    local t0; t0=$(now_ms)
    if [ -n "$NSPID" ] && kill -0 "$NSPID" 2>/dev/null; then
        [ -n "$CPID" ] && timeout 10 nsenter -t "$CPID" -m -p /usr/bin/systemctl --no-block poweroff >/dev/null 2>&1
        for _ in $(seq 1 100); do kill -0 "$NSPID" 2>/dev/null || break; sleep 0.2; done
        if kill -0 "$NSPID" 2>/dev/null; then kill -TERM "$NSPID" 2>/dev/null; sleep 3; fi
        if kill -0 "$NSPID" 2>/dev/null; then kill -KILL "$NSPID" 2>/dev/null; fi
        wait "$NSPID" 2>/dev/null
        echo "container shutdown took $(secs $(( $(now_ms) - t0 )))" >>"$LOGDIR/cleanup.log"
    fi
    if [ -n "$CGDIR" ] && [ -d "$CGDIR" ]; then
        # processes left in our own cgroup subtree (there should be none) are ours: kill them there
        if [ -n "$(find "$CGDIR" -name cgroup.procs -exec cat {} + 2>/dev/null)" ] && [ -e "$CGDIR/cgroup.kill" ]; then
            echo 1 >"$CGDIR/cgroup.kill"; sleep 1; echo "used cgroup.kill on $CGDIR" >>"$LOGDIR/cleanup.log"
        fi
        find "$CGDIR" -depth -type d -exec rmdir {} \; 2>>"$LOGDIR/cleanup.log"
    fi
    # mounts nspawn may have left behind (none expected: they live in the container's mount namespace)
    awk -v r="$RUNROOT" 'index($5, r) == 1 { print $5 }' /proc/self/mountinfo | sort -r | while read -r m; do
        umount -l "$m" && echo "unmounted leftover $m" >>"$LOGDIR/cleanup.log"
    done
    rm -rf /run/systemd/nspawn/propagate/"$MACHINE" /run/systemd/nspawn/unix-export/"$MACHINE" 2>/dev/null
    [ "$NSPAWN_RUN_CREATED" = 1 ] && rm -rf /run/systemd/nspawn
    [ "$KEEP" = 1 ] || rm -rf "$RUNROOT"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

rm -rf "$RUNROOT"
t0=$(now_ms)
cp -a "$BASE" "$RUNROOT"
if [ "$MODE" = deb ]; then
    # shellcheck source=scripts/systemd-container-deb.sh
    . "$SCRIPTS/systemd-container-deb.sh"
    deb_prepare_root || exit 2
else
install -D -m 0755 "$LS" "$RUNROOT/usr/local/bin/lightshow"
install -D -m 0644 "$UNIT" "$RUNROOT/etc/systemd/system/lightshow.service"
mkdir -p "$RUNROOT/etc/lightshow"
GOOD_CONF=$'[input]\nsource = "demo"\n'
BAD_CONF=$'[input]\nsource = "demo"\n\n[bands.bass]\nupper = 99999\n'
printf '%s' "$GOOD_CONF" >"$RUNROOT/etc/lightshow/lightshow.toml"
fi
echo "root copy + install: $(secs $(( $(now_ms) - t0 )))" >>"$LOGDIR/timings.log"

# ---------------------------------------------------------------- boot
# A cgroup of our own, so the container's cgroups sit under it and are easy to remove afterwards.
if [ "$(stat -fc %T /sys/fs/cgroup 2>/dev/null)" = cgroup2fs ]; then
    CGROOT=/sys/fs/cgroup; HOSTCG=unified
elif [ "$(stat -fc %T /sys/fs/cgroup/unified 2>/dev/null)" = cgroup2fs ]; then
    CGROOT=/sys/fs/cgroup/unified; HOSTCG=hybrid
else
    CGROOT=""; HOSTCG=legacy
fi
[ -n "$CGROOT" ] && CGDIR="$CGROOT/sdtest-$$"

NSPAWN_ARGS=(-D "$RUNROOT" -M "$MACHINE" -b --register=no --keep-unit --private-network
    --link-journal=no --resolv-conf=off --timezone=off --console=read-only
    # nspawn's seccomp filter denies bpf() by default; without it systemd silently drops
    # IPAddressDeny=/IPAddressAllow= and DevicePolicy=/DeviceAllow= (cgroup-v2 BPF programs).
    --system-call-filter=bpf --capability=CAP_BPF)
# the package's binary must need nothing of the toolchain: no bind for it
[ "$MODE" = deb ] || NSPAWN_ARGS+=(--bind-ro="$SWIFT_DIR")
t_boot0=$(now_ms)
(
    if [ -n "$CGDIR" ]; then mkdir -p "$CGDIR" && echo $BASHPID >"$CGDIR/cgroup.procs"; fi
    # a hybrid host (v1 controllers + cgroup2 at /sys/fs/cgroup/unified): give the container a pure cgroup2,
    # like a stock Debian 12 host, so BPF-based unit settings work
    [ "$HOSTCG" = hybrid ] && export SYSTEMD_NSPAWN_UNIFIED_HIERARCHY=1
    exec systemd-nspawn "${NSPAWN_ARGS[@]}"
) >"$LOGDIR/console.log" 2>&1 </dev/null &
NSPID=$!
echo "systemd-nspawn ${NSPAWN_ARGS[*]}" >"$LOGDIR/nspawn-cmd.txt"

# the container's PID 1 is nspawn's only child once it has exec'd systemd
for _ in $(seq 1 150); do
    kill -0 "$NSPID" 2>/dev/null || break
    c="$(cat /proc/"$NSPID"/task/*/children 2>/dev/null | awk '{ print $1; exit }')"
    if [ -n "$c" ] && [ "$(readlink /proc/"$c"/exe 2>/dev/null)" = /usr/lib/systemd/systemd ]; then CPID=$c; break; fi
    sleep 0.2
done
if [ -z "$CPID" ]; then
    result boot FAIL "systemd did not start as PID 1 (host cgroups: $HOSTCG), see $LOGDIR/console.log"
    tail -20 "$LOGDIR/console.log"; exit 2
fi

inct() { # run a command inside the container (as root, outside any unit)
    nsenter -t "$CPID" -m -u -i -n -p -C -r -w /usr/bin/env -i \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin TERM=dumb SYSTEMD_PAGER= \
        SYSTEMD_COLORS=0 LANG=C.UTF-8 "$@"
}
prop() { inct systemctl show -P "$2" "$1" 2>/dev/null; }
# is-system-running --wait gives up at once when systemd's private socket isn't there yet (seen 0.5 s after launch)
for _ in $(seq 1 150); do [ -S /proc/"$CPID"/root/run/systemd/private ] && break; sleep 0.2; done
sd_state="$(timeout 90 nsenter -t "$CPID" -m -p /usr/bin/systemctl is-system-running --wait 2>/dev/null)"
t_boot=$(( $(now_ms) - t_boot0 ))
failed_units="$(inct systemctl --failed --plain --no-legend | awk '{ print $1 }' | tr '\n' ' ')"
startup="$(inct journalctl -b -o cat --no-pager | grep -m1 'Startup finished' | sed 's/Startup finished in //; s/\.$//')"
case "$sd_state" in
    running) result boot PASS "systemd $(inct systemctl --version | awk 'NR==1 { print $2 }') is PID 1, state running $(secs $t_boot) after launching nspawn (systemd: startup finished in $startup; host cgroups $HOSTCG, container cgroup2)" ;;
    degraded) result boot WARN "state degraded after $(secs $t_boot); failed: $failed_units" ;;
    *) result boot FAIL "state '$sd_state' after $(secs $t_boot); failed: $failed_units"; exit 2 ;;
esac
echo "boot: $(secs $t_boot)" >>"$LOGDIR/timings.log"

if [ "$MODE" = deb ]; then
    deb_checks
    inct journalctl -b --no-pager -o short-monotonic >"$LOGDIR/journal-full.txt" 2>&1
    echo "summary: $FAILS check(s) failed; details in $LOGDIR"
    [ "$FAILS" = 0 ]
    exit
fi

# ---------------------------------------------------------------- static checks
missing="$(inct ldd /usr/local/bin/lightshow | grep 'not found' | tr -s ' \t' ' ')"
if [ -z "$missing" ]; then result libs PASS "all shared libraries resolve inside the container (Swift from $SWIFT_DIR, read-only bind)"
else result libs FAIL "missing: $missing"; fi

verify_out="$(inct systemd-analyze verify --man=no /etc/systemd/system/lightshow.service 2>&1)"
if [ -z "$verify_out" ]; then result verify PASS "systemd-analyze verify --man=no: no output"
else result verify WARN "$(echo "$verify_out" | head -3 | tr '\n' '|')"; fi

# ---------------------------------------------------------------- start
inct systemctl daemon-reload
load_warn="$(inct journalctl -b -o cat --no-pager | grep -E 'lightshow.service:[0-9]+:' | sort -u | head -5)"
[ -n "$load_warn" ] && result unit-load WARN "$(echo "$load_warn" | tr '\n' '|')"
t0=$(now_ms)
start_out="$(inct systemctl start lightshow.service 2>&1)"; start_rc=$?
t_start=$(( $(now_ms) - t0 ))
state="$(prop lightshow ActiveState)/$(prop lightshow SubState)"
status_text="$(prop lightshow StatusText)"
PID1="$(prop lightshow MainPID)"
if [ $start_rc -eq 0 ] && [ "$state" = active/running ]; then
    result start PASS "active (running) in $(secs $t_start), MainPID $PID1, STATUS=\"$status_text\""
else
    result start FAIL "rc=$start_rc state=$state $start_out"
fi
inct systemctl status lightshow.service --no-pager -l >"$LOGDIR/status-after-start.txt" 2>&1

sleep 2
journal() { inct journalctl -u lightshow.service -b --no-pager -o short-monotonic "$@"; }
journal >"$LOGDIR/journal-after-start.txt"
prio_msgs="$(grep -c 'Failed to set thread priority' "$LOGDIR/journal-after-start.txt")"
prio_errnos="$(grep 'Failed to set thread priority' "$LOGDIR/journal-after-start.txt" | grep -o 'errno=[0-9]*' | sort | uniq -c | tr -s ' \n' ' ')"
errs="$(grep -v 'Failed to set thread priority' "$LOGDIR/journal-after-start.txt" | grep -iE ' (error|warning|critical|fatal)|denied|not permitted|EPERM|seccomp' | head -3)"
if [ -z "$errs" ] && [ "$prio_msgs" = 0 ]; then result journal PASS "no errors or warnings after start"
else
    result journal WARN "${prio_msgs} x 'Failed to set thread priority for worker thread: ... errno=1' (libdispatch setpriority() hit SystemCallFilter=~@resources -> EPERM)${errs:+; other: $(echo "$errs" | tr '\n' '|')}"
fi

# ---------------------------------------------------------------- sandbox as applied by systemd
bpf_out="$(bpftool cgroup show "$CGDIR/payload/system.slice/lightshow.service" 2>&1)"
echo "$bpf_out" >"$LOGDIR/bpf-programs.txt"
has_dev=$(grep -c 'cgroup_device\|^[0-9].* device ' <<<"$bpf_out"); has_in=$(grep -c ingress <<<"$bpf_out"); has_eg=$(grep -c egress <<<"$bpf_out")
if [ "$has_dev" -ge 1 ] && [ "$has_in" -ge 1 ] && [ "$has_eg" -ge 1 ]; then
    result bpf-sandbox PASS "cgroup BPF attached: device policy + IP firewall ingress/egress (DevicePolicy/IPAddressDeny in force)"
else
    result bpf-sandbox FAIL "device=$has_dev ingress=$has_in egress=$has_eg programs on the unit's cgroup: $(echo "$bpf_out" | tr '\n' '|')"
fi
if grep -qw alsa /proc/devices; then result char-alsa INFO "kernel has ALSA (major $(awk '$2 == "alsa" { print $1 }' /proc/devices))"
else result char-alsa INFO "this kernel has no 'alsa' in /proc/devices: DeviceAllow=char-alsa resolves to nothing here, /dev/snd untestable"; fi
if [ -n "$PID1" ] && [ "$PID1" != 0 ]; then
    hp="$(inct cat /proc/"$PID1"/status 2>/dev/null | awk '/^(Uid|Groups|NoNewPrivs|Seccomp|CapEff|CapBnd):/ { printf "%s %s ", $1, $2 }')"
    result sandbox-procfs INFO "$hp"
fi
exposure="$(inct systemd-analyze security lightshow.service --no-pager 2>/dev/null | grep 'Overall exposure' | sed 's/.*lightshow.service: *//')"
result exposure INFO "systemd-analyze security (online): $exposure"

# ---------------------------------------------------------------- control socket
sock=/run/lightshow/control.sock
ctl_out="$(inct timeout 15 lightshow ctl --socket $sock status 2>&1)"; ctl_rc=$?
if [ $ctl_rc -eq 0 ]; then result ctl-root PASS "lightshow ctl --socket $sock status: $(grep -E '^(state|capture|device):' <<<"$ctl_out" | tr '\n' ' ')"
else result ctl-root FAIL "rc=$ctl_rc $(echo "$ctl_out" | head -2 | tr '\n' '|')"; fi
perm="$(inct stat -c '%n %A %U(%u):%G(%g)' /run/lightshow $sock 2>/dev/null | tr '\n' ' ')"
ctl_u="$(inct runuser -u tester -- timeout 15 lightshow ctl --socket $sock status 2>&1)"; ctl_u_rc=$?
if [ $ctl_u_rc -eq 0 ]; then result ctl-nonroot PASS "user 'tester' (group audio) can use the socket ($perm)"
else result ctl-nonroot WARN "user 'tester' (group audio) cannot use the socket: rc=$ctl_u_rc $(echo "$ctl_u" | head -1) ($perm)"; fi

# ---------------------------------------------------------------- reload
t0=$(now_ms)
rl_out="$(inct systemctl reload lightshow.service 2>&1)"; rl_rc=$?
t_rl=$(( $(now_ms) - t0 ))
state="$(prop lightshow ActiveState)/$(prop lightshow SubState)"; pid_now="$(prop lightshow MainPID)"
if [ $rl_rc -eq 0 ] && [ "$state" = active/running ] && [ "$pid_now" = "$PID1" ]; then
    result reload PASS "systemctl reload rc=0 in $(secs $t_rl), still active (running), same MainPID"
else result reload FAIL "rc=$rl_rc state=$state pid $PID1->$pid_now $rl_out"; fi

printf '%s' "$BAD_CONF" >"$RUNROOT/etc/lightshow/lightshow.toml"
rl_out="$(inct systemctl reload lightshow.service 2>&1)"; rl_rc=$?
sleep 1
state="$(prop lightshow ActiveState)/$(prop lightshow SubState)"; pid_now="$(prop lightshow MainPID)"
why="$(journal -n 30 | grep -v 'thread priority' | grep -m1 -E 'error: ' | sed 's/.*\]: //')"
if [ $rl_rc -ne 0 ] && [ "$state" = active/running ] && [ "$pid_now" = "$PID1" ]; then
    result reload-bad-config PASS "reload rc=$rl_rc (ExecReload exit $(prop lightshow ExecMainStatus >/dev/null; journal -n 20 | grep -o 'status=[0-9]*/[A-Z]*' | tail -1)), service stays active (running) on the old config: $why"
elif [ "$state" = active/running ] && [ "$pid_now" = "$PID1" ]; then
    result reload-bad-config WARN "reload rc=0 for a bad config, service still active: $why"
else result reload-bad-config FAIL "rc=$rl_rc state=$state pid $PID1->$pid_now"; fi
printf '%s' "$GOOD_CONF" >"$RUNROOT/etc/lightshow/lightshow.toml"
inct systemctl reload lightshow.service >/dev/null 2>&1 && result reload-recover PASS "good config reloads again (rc=0)" \
    || result reload-recover FAIL "reload after restoring the good config failed"

# ---------------------------------------------------------------- watchdog
if [ "$QUICK" != 1 ]; then
    r0="$(prop lightshow NRestarts)"
    sleep 30
    state="$(prop lightshow ActiveState)/$(prop lightshow SubState)"; pid_now="$(prop lightshow MainPID)"; r1="$(prop lightshow NRestarts)"
    # WatchdogTimestamp= is when systemd last got WATCHDOG=1 (second resolution)
    wd_ts="$(date -d "$(prop lightshow WatchdogTimestamp)" +%s 2>/dev/null || echo 0)"
    age=$(( ($(date +%s) - wd_ts) * 1000 ))
    if [ "$state" = active/running ] && [ "$pid_now" = "$PID1" ] && [ "$r0" = "$r1" ] && [ "$age" -lt 10000 ]; then
        result watchdog-30s PASS "alive 30 s later, same MainPID, NRestarts=$r1, last WATCHDOG=1 ${age} ms ago (WatchdogSec=$(prop lightshow WatchdogUSec))"
    else result watchdog-30s FAIL "state=$state pid $PID1->$pid_now restarts $r0->$r1 last ping ${age} ms ago"; fi

    # a hung daemon (SIGSTOP) must be killed by the watchdog and restarted (Restart=on-failure)
    inct kill -STOP "$PID1"
    t0=$(now_ms); newpid=""
    for _ in $(seq 1 60); do
        sleep 0.5
        p="$(prop lightshow MainPID)"; s="$(prop lightshow ActiveState)/$(prop lightshow SubState)"
        if [ -n "$p" ] && [ "$p" != 0 ] && [ "$p" != "$PID1" ] && [ "$s" = active/running ]; then newpid=$p; break; fi
    done
    t_wd=$(( $(now_ms) - t0 ))
    wd_log="$(journal --since '-40s' | grep -m1 -i 'watchdog timeout' | sed 's/.*\]: //')"
    if [ -n "$newpid" ] && [ -n "$wd_log" ]; then
        result watchdog-hang PASS "SIGSTOPped daemon: '$wd_log', restarted as PID $newpid, active (running) after $(secs $t_wd), NRestarts=$(prop lightshow NRestarts)"
        PID1=$newpid
    else result watchdog-hang FAIL "no watchdog restart within $(secs $t_wd) (log: ${wd_log:-none}) state=$(prop lightshow ActiveState)/$(prop lightshow SubState)"
        inct kill -CONT "$PID1" 2>/dev/null
    fi
fi

# ---------------------------------------------------------------- stop
t0=$(now_ms)
stop_out="$(inct systemctl stop lightshow.service 2>&1)"; stop_rc=$?
t_stop=$(( $(now_ms) - t0 ))
res="$(prop lightshow Result)"; st="$(prop lightshow ActiveState)"
rd="$(inct test -e /run/lightshow && echo kept || echo removed)"
if [ $stop_rc -eq 0 ] && [ "$st" = inactive ] && [ "$res" = success ] && [ $t_stop -lt 5000 ]; then
    result stop PASS "stopped in $(secs $t_stop), Result=$res, /run/lightshow $rd"
else result stop FAIL "rc=$stop_rc in $(secs $t_stop) ActiveState=$st Result=$res $stop_out"; fi
journal >"$LOGDIR/journal-system-unit.txt"

# ---------------------------------------------------------------- more scenarios (each starts and stops the unit)
conf() { printf '%s' "$1" >"$RUNROOT/etc/lightshow/lightshow.toml"; }
dropin() { # dropin NAME CONTENT: a runtime drop-in for lightshow.service ("" removes it)
    if [ -n "$2" ]; then inct mkdir -p /run/systemd/system/lightshow.service.d
        printf '%s' "$2" | inct tee "/run/systemd/system/lightshow.service.d/$1.conf" >/dev/null
    else inct rm -f "/run/systemd/system/lightshow.service.d/$1.conf"; fi
    inct systemctl daemon-reload
}
since_ts() { inct journalctl -b --no-pager -o cat -u lightshow.service --since "@$1" 2>/dev/null; }

# MPD on this host by name: "localhost" must resolve and 127.0.0.1 must pass IPAddressAllow=localhost
conf $'[input]\nsource = "demo"\n[mpd]\naddress = "localhost:6600"\n'
inct systemctl start lightshow.service; sleep 3
m="$(journal -n 40 | grep -m1 'MPD at localhost' | sed 's/.*\] //')"
case "$m" in
    *"Connection refused"*) result mpd-localhost PASS "reaches 127.0.0.1:6600 through the firewall (nothing listens: '$m')" ;;
    *) result mpd-localhost FAIL "${m:-no MPD log line}" ;;
esac
inct systemctl stop lightshow.service

# IPAddressDeny=any: a non-loopback address (10.1.2.3 put on the container's lo) must be dropped
if nsenter -t "$CPID" -n ip addr add 10.1.2.3/32 dev lo 2>/dev/null; then
    conf $'[input]\nsource = "demo"\n[mpd]\naddress = "10.1.2.3:6600"\n'
    inct systemctl start lightshow.service; sleep 6.5
    m="$(journal -n 40 | grep -m1 'MPD at 10.1.2.3' | sed 's/.*\] //')"
    ctrl="$(inct systemd-run --wait --pipe -q -p DynamicUser=yes bash -c 'exec 3<>/dev/tcp/10.1.2.3/6600' 2>&1 | tail -1)"
    case "$m" in
        *"did not answer"*|*"not permitted"*) result ip-firewall INFO "10.1.2.3:6600 blocked for the unit ('$m'); outside the unit: '${ctrl##*: }'" ;;
        *) result ip-firewall INFO "unit reached or tried 10.1.2.3:6600: got '${m:-no MPD log line}'; outside the unit: '$ctrl'" ;;
    esac
    inct systemctl stop lightshow.service
else result ip-firewall INFO "could not add a test address to the container's lo (no ip(8) on the host?)"; fi
conf "$GOOD_CONF"

# no capture device yet (boot before the sound card, unplugged USB): retry loop must keep the watchdog fed
if [ "$QUICK" != 1 ]; then
    conf $'[input]\nsource = "alsa:default"\n'
    inct systemctl start lightshow.service; sleep 15
    st="$(prop lightshow ActiveState)/$(prop lightshow SubState)"; nr="$(prop lightshow NRestarts)"
    [ "$st" = active/running ] && [ "$nr" = 0 ] \
        && result retry-no-device PASS "alsa:default with no card: active (running) 15 s, NRestarts=0, STATUS=\"$(prop lightshow StatusText | cut -c1-80)...\"" \
        || result retry-no-device FAIL "state=$st NRestarts=$nr"
    inct systemctl stop lightshow.service
    conf "$GOOD_CONF"
fi

# a bad config at start: exit 78 (EX_CONFIG) with Restart=on-failure
if [ "$QUICK" != 1 ]; then
    conf "$BAD_CONF"
    inct systemctl start lightshow.service >/dev/null 2>&1; sleep 14
    st="$(prop lightshow ActiveState)/$(prop lightshow SubState)"; nr="$(prop lightshow NRestarts)"
    lim="StartLimitIntervalSec=$(prop lightshow StartLimitIntervalUSec) StartLimitBurst=$(prop lightshow StartLimitBurst) RestartSec=$(prop lightshow RestartUSec)"
    if [ "$st" = failed/failed ] && [ "$nr" -le 5 ]; then result start-bad-config PASS "gave up: failed after $nr restarts"
    else result start-bad-config WARN "still restarting after 14 s: $st, NRestarts=$nr, exit $(prop lightshow ExecMainStatus)/CONFIG every time; with $lim the start limit is never hit, so it loops forever"; fi
    inct systemctl stop lightshow.service; inct systemctl reset-failed lightshow.service 2>/dev/null
    dropin zz-diag $'[Service]\nRestartPreventExitStatus=78\n'
    inct systemctl start lightshow.service >/dev/null 2>&1; sleep 4
    result diag-restartprevent INFO "with a drop-in RestartPreventExitStatus=78: $(prop lightshow ActiveState)/$(prop lightshow SubState) NRestarts=$(prop lightshow NRestarts) after 4 s"
    dropin zz-diag ""; inct systemctl reset-failed lightshow.service 2>/dev/null
    conf "$GOOD_CONF"
fi

# Swift's crash backtracer (swift-backtrace) under MemoryDenyWriteExecute=yes. A SIGSEGV sent with kill
# makes the runtime's handler run; it returns, so the daemon keeps running (a real fault would kill it).
inct systemctl start lightshow.service; sleep 1; bts="$(date +%s)"
inct systemctl kill -s SEGV lightshow.service; sleep 4
bt="$(since_ts "$bts")"
if grep -q 'cannot enable executable stack' <<<"$bt"; then
    result crash-backtrace WARN "no backtrace on a crash: '$(grep -m1 'cannot enable executable stack' <<<"$bt")' (libswiftRuntime.so asks for an executable stack, MemoryDenyWriteExecute=yes forbids it)"
elif grep -q 'Backtrace took' <<<"$bt"; then result crash-backtrace PASS "backtrace written to the journal"
else result crash-backtrace INFO "no backtracer output: $(grep -m2 -i 'signal\|backtrac' <<<"$bt" | tr '\n' '|')"; fi
inct systemctl stop lightshow.service
bt_static="$(dirname "$(readlink -f "$SWIFT_DIR/usr/lib/swift/linux/libswiftCore.so" 2>/dev/null)")/../../../libexec/swift/linux/swift-backtrace-static"
if grep -q 'cannot enable executable stack' <<<"$bt" && [ -x "$bt_static" ]; then
    bt_static="$(realpath "$bt_static")"
    dropin zz-diag "[Service]"$'\n'"Environment=SWIFT_BACKTRACE=swift-backtrace=$bt_static"$'\n'
    inct systemctl start lightshow.service; sleep 1; bts="$(date +%s)"
    inct systemctl kill -s SEGV lightshow.service; sleep 4
    grep -q 'Backtrace took' <<<"$(since_ts "$bts")" \
        && result diag-backtrace INFO "with Environment=SWIFT_BACKTRACE=swift-backtrace=$bt_static the backtrace is written under the same sandbox" \
        || result diag-backtrace INFO "static backtracer did not help either"
    inct systemctl stop lightshow.service; dropin zz-diag ""
fi

# ---------------------------------------------------------------- diagnosis: is ~@resources the source of the EPERM noise?
if [ "$prio_msgs" != 0 ]; then
    inct mkdir -p /run/systemd/system/lightshow.service.d
    printf '[Service]\nSystemCallFilter=setpriority\n' | inct tee /run/systemd/system/lightshow.service.d/zz-diag.conf >/dev/null
    inct systemctl daemon-reload; inct systemctl start lightshow.service; sleep 2
    dpid="$(prop lightshow MainPID)"
    n="$(journal _PID="$dpid" 2>/dev/null | grep -c 'Failed to set thread priority')"
    n_all="$(inct journalctl -b --no-pager _PID="$dpid" | grep 'Failed to set thread priority' | grep -o 'errno=[0-9]*' | sort | uniq -c | tr -s ' \n' ' ')"
    inct systemctl stop lightshow.service
    inct rm -rf /run/systemd/system/lightshow.service.d; inct systemctl daemon-reload
    result diag-setpriority INFO "with a drop-in 'SystemCallFilter=setpriority' (re-allowing only setpriority) the daemon logs: ${n_all:-none} (unit as is: $prio_errnos; errno 1=EPERM from seccomp, 13=EACCES no CAP_SYS_NICE)"
fi

# ---------------------------------------------------------------- user unit (optional)
if [ "$QUICK" != 1 ] && [ -n "$USER_UNIT" ] && [ -f "$USER_UNIT" ]; then
    install -D -m 0644 "$USER_UNIT" "$RUNROOT/etc/systemd/user/lightshow.service"
    uid="$(inct id -u tester)"
    inct loginctl enable-linger tester
    for _ in $(seq 1 75); do [ "$(inct systemctl is-active user@"$uid".service)" = active ] && break; sleep 0.2; done
    if [ "$(inct systemctl is-active user@"$uid".service)" != active ]; then
        result user-manager FAIL "user@$uid.service did not start: $(inct journalctl -b -o cat --no-pager | grep -E '^Trying|PAM|user@' | tail -3 | tr '\n' '|')"
    else
        ucmd() { inct runuser -u tester -- env XDG_RUNTIME_DIR=/run/user/"$uid" "$@"; }
        uprop() { ucmd systemctl --user show -P "$2" "$1" 2>/dev/null; }
        ujournal() { inct journalctl -b --no-pager -o short-monotonic "$@" _SYSTEMD_USER_UNIT=lightshow.service + USER_UNIT=lightshow.service 2>/dev/null; }
        result user-manager PASS "systemd --user running for 'tester' (uid $uid) via loginctl enable-linger"
        ucmd systemctl --user daemon-reload
        ucmd systemctl --user start lightshow.service >/dev/null 2>&1; sleep 3
        result user-unit-as-is INFO "ExecStart as shipped (--input alsa:pulse, no sound server here): $(uprop lightshow ActiveState)/$(uprop lightshow SubState), STATUS=\"$(uprop lightshow StatusText)\""
        ucmd systemctl --user stop lightshow.service >/dev/null 2>&1
        # the same hardening with a demo input, to exercise notify/watchdog/reload/ctl under the user manager
        inct mkdir -p /etc/systemd/user/lightshow.service.d
        printf '[Service]\nExecStart=\nExecStart=/usr/local/bin/lightshow daemon --input demo\n' |
            inct tee /etc/systemd/user/lightshow.service.d/demo.conf >/dev/null
        ucmd systemctl --user daemon-reload
        t0=$(now_ms); ucmd systemctl --user start lightshow.service 2>&1; rc=$?; t_u=$(( $(now_ms) - t0 ))
        ust="$(uprop lightshow ActiveState)/$(uprop lightshow SubState)"
        [ $rc -eq 0 ] && [ "$ust" = active/running ] \
            && result user-unit-demo PASS "active (running) in $(secs $t_u), STATUS=\"$(uprop lightshow StatusText)\"" \
            || result user-unit-demo FAIL "rc=$rc state=$ust"
        uc="$(ucmd timeout 15 lightshow ctl --socket /run/user/"$uid"/lightshow/control.sock status 2>&1)"; rc=$?
        [ $rc -eq 0 ] && result user-unit-ctl PASS "ctl status as tester: $(grep -E '^(state|capture):' <<<"$uc" | tr '\n' ' ')" \
            || result user-unit-ctl FAIL "rc=$rc $(echo "$uc" | head -1)"
        ucmd systemctl --user reload lightshow.service >/dev/null 2>&1; rc=$?
        [ $rc -eq 0 ] && [ "$(uprop lightshow ActiveState)" = active ] && result user-unit-reload PASS "reload rc=0, still active" \
            || result user-unit-reload FAIL "reload rc=$rc state=$(uprop lightshow ActiveState)"
        ubts="$(date +%s)"; ucmd systemctl --user kill -s SEGV lightshow.service; sleep 4
        ubt="$(inct journalctl -b --no-pager -o cat --since "@$ubts" SYSLOG_IDENTIFIER=lightshow 2>/dev/null)"
        if grep -q 'cannot enable executable stack' <<<"$ubt"; then result user-unit-backtrace WARN "no backtrace on a crash (MemoryDenyWriteExecute=yes vs libswiftRuntime.so's executable stack), as for the system unit"
        elif grep -q 'Backtrace took' <<<"$ubt"; then result user-unit-backtrace PASS "backtrace written"
        else result user-unit-backtrace INFO "no backtracer output"; fi
        ucmd systemctl --user restart lightshow.service
        sleep 12
        [ "$(uprop lightshow ActiveState)/$(uprop lightshow NRestarts)" = active/0 ] \
            && result user-unit-watchdog PASS "still active after 12 s > WatchdogSec, NRestarts=0" \
            || result user-unit-watchdog FAIL "state=$(uprop lightshow ActiveState) NRestarts=$(uprop lightshow NRestarts)"
        t0=$(now_ms); ucmd systemctl --user stop lightshow.service; t_u=$(( $(now_ms) - t0 ))
        [ "$(uprop lightshow Result)" = success ] && result user-unit-stop PASS "stopped in $(secs $t_u), Result=success" \
            || result user-unit-stop FAIL "Result=$(uprop lightshow Result) after $(secs $t_u)"
        ujournal >"$LOGDIR/journal-user-unit.txt"
        up="$(grep 'Failed to set thread priority' "$LOGDIR/journal-user-unit.txt" | grep -o 'errno=[0-9]*' | sort | uniq -c | tr -s ' \n' ' ')"
        result user-unit-journal INFO "$(wc -l <"$LOGDIR/journal-user-unit.txt") journal lines; 'Failed to set thread priority': ${up:-none}"
    fi
fi

inct journalctl -b --no-pager -o short-monotonic >"$LOGDIR/journal-full.txt" 2>&1
echo "summary: $FAILS check(s) failed; details in $LOGDIR"
[ "$FAILS" = 0 ]
