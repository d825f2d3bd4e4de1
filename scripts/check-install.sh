#!/usr/bin/env bash
# `make install DESTDIR=…` into a scratch directory, then checks what a user would get: the installed binaries
# (lightshow and the web server's lightshow-web) need nothing from the Swift toolchain (ldd lists no Swift runtime
# library, no RUNPATH points into the toolchain), a copy of lightshow elsewhere runs `--help`, the installed daemon
# finds the installed lightshow-web in ../libexec/lightshow and serves `/api/status` through it (and both processes
# end on SIGTERM), `man -l` renders the installed page, and `make uninstall` takes it all away again (but an edited
# config).
set -euo pipefail
cd "$(dirname "$0")/.."
work="$(mktemp -d)"
trap '[ -z "${daemon_pid:-}" ] || kill -KILL "$daemon_pid" 2>/dev/null; rm -rf "$work"' EXIT
dest="$work/root"
failures=0
passes=0
fail() { echo "check-install: FAIL: $*" >&2; failures=$((failures + 1)); }
pass() { echo "check-install: ok: $*"; passes=$((passes + 1)); }

make --no-print-directory install DESTDIR="$dest" PREFIX=/usr >"$work/install.log" 2>&1 || { cat "$work/install.log" >&2; fail "make install"; exit 1; }
binary="$dest/usr/bin/lightshow"
web="$dest/usr/libexec/lightshow/lightshow-web"
toolchain="$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")"
for installed in "$binary" "$web"; do
    name="$(basename "$installed")"
    [ -x "$installed" ] && pass "installed ${installed#"$dest"}" || { fail "no executable at ${installed#"$dest"}"; continue; }
    if ldd "$installed" | grep -E 'libswift|libFoundation|libdispatch|BlocksRuntime' >"$work/ldd" ; then
        fail "$name links the Swift runtime dynamically: $(tr '\n' ' ' <"$work/ldd")"
    else
        pass "ldd lists no Swift runtime library for $name"
    fi
    if readelf -d "$installed" | grep -E 'RUNPATH|RPATH' | grep -q "$toolchain\|/swift"; then
        fail "$name has a RUNPATH into the toolchain: $(readelf -d "$installed" | grep -E 'RUNPATH|RPATH')"
    else
        pass "no RUNPATH into the toolchain in $name"
    fi
done

# A copy elsewhere, run with the toolchain out of reach of the loader's search.
mkdir -p "$work/elsewhere"
cp "$binary" "$work/elsewhere/lightshow"
if env -i PATH=/usr/bin:/bin LD_LIBRARY_PATH= "$work/elsewhere/lightshow" --help >"$work/help" 2>&1 && grep -q "USAGE: lightshow" "$work/help"; then
    pass "a copy elsewhere runs --help"
else
    fail "a copy elsewhere does not run --help: $(head -c 300 "$work/help")"
fi

# The installed daemon with --web starts the installed lightshow-web (../libexec/lightshow from its own directory):
# the demo input, a throw-away config, its own runtime directory and a port the kernel just handed out.
daemon_pid=""
web_check() {
    local home="$work/web" port child="" deadline code=000 body rc=0 p
    local want; want="$(readlink -f "$web")"
    command -v curl >/dev/null || { fail "curl is missing (make deps-test installs it)"; return 0; }
    mkdir -p "$home/runtime" "$home/xdg" "$home/config"
    printf '[input]\nsource = "demo"\n[player]\nsource = "none"\n' >"$home/lightshow.toml"
    port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    env -i PATH=/usr/bin:/bin HOME="$home" XDG_RUNTIME_DIR="$home/xdg" RUNTIME_DIRECTORY="$home/runtime" \
        XDG_CONFIG_HOME="$home/config" "$binary" daemon --config "$home/lightshow.toml" --input demo --web "127.0.0.1:$port" \
        </dev/null >"$home/daemon.log" 2>&1 &
    daemon_pid=$!
    # Poll until /api/status answers 200, the daemon ends, or 20 s pass.
    deadline=$(( $(date +%s) + 20 ))
    while [ "$(date +%s)" -lt "$deadline" ] && [ -d "/proc/$daemon_pid" ] && [ "$(cut -d' ' -f3 "/proc/$daemon_pid/stat" 2>/dev/null)" != Z ]; do
        code="$(curl -s -o "$home/status.json" -w '%{http_code}' --max-time 2 "http://127.0.0.1:$port/api/status" || true)"
        [ "$code" = 200 ] && break
        sleep 0.05
    done
    body="$(head -c 300 "$home/status.json" 2>/dev/null || true)"
    if [ "$code" = 200 ] && grep -q '"ok":true' <<<"$body"; then
        pass "the installed daemon serves GET /api/status on 127.0.0.1:$port: 200 $(head -c 40 <<<"$body")…"
    else
        fail "GET /api/status on 127.0.0.1:$port: HTTP $code '$body'; daemon log: $(tail -n 5 "$home/daemon.log" | tr '\n' '|')"
    fi
    for p in $(pgrep -P "$daemon_pid" || true); do
        [ "$(readlink "/proc/$p/exe" 2>/dev/null || true)" = "$want" ] && child=$p
    done
    if [ -n "$child" ]; then pass "its child $child runs the installed ${web#"$dest"}"
    else fail "no child of the daemon runs ${web#"$dest"}: $(pgrep -a -P "$daemon_pid" | tr '\n' '|')"; fi

    kill -TERM "$daemon_pid" 2>/dev/null || true
    # The daemon is this shell's child, so wait returns as it ends; a guard kills it if it is still there after 20 s.
    ( deadline=$(( $(date +%s) + 20 ))
      while [ "$(date +%s)" -lt "$deadline" ]; do [ "$(cut -d' ' -f3 "/proc/$daemon_pid/stat" 2>/dev/null || echo Z)" = Z ] && exit 0; sleep 0.05; done
      kill -KILL "$daemon_pid" 2>/dev/null ) &
    local guard=$!
    wait "$daemon_pid" || rc=$?
    daemon_pid=""
    wait "$guard" 2>/dev/null || true
    # The daemon reaps lightshow-web before it exits: the child's /proc entry is already gone.
    if [ "$rc" = 0 ] && [ -n "$child" ] && [ ! -e "/proc/$child" ]; then
        pass "SIGTERM: the daemon exits 0, and lightshow-web ($child) is gone with it"
    else
        fail "after SIGTERM: daemon exit $rc, lightshow-web ${child:-none} $( [ -n "$child" ] && [ -e "/proc/$child" ] && echo 'still there' || echo gone); log: $(tail -n 5 "$home/daemon.log" | tr '\n' '|')"
        if [ -n "$child" ]; then kill -KILL "$child" 2>/dev/null || true; fi
    fi
}
web_check

page="$dest/usr/share/man/man1/lightshow.1"
if [ -f "$page" ] && MANWIDTH=80 man -l "$page" 2>"$work/man.err" | grep -q "lightshow"; then
    pass "man -l renders $page"
else
    fail "man -l does not render $page: $(cat "$work/man.err" 2>/dev/null)"
fi
for unit in lib/systemd/system/lightshow.service lib/systemd/user/lightshow.service; do
    grep -q "ExecStart=/usr/bin/lightshow" "$dest/usr/$unit" && grep -q "swift-backtrace=/usr/libexec/lightshow/" "$dest/usr/$unit" \
        && pass "$unit runs /usr/bin/lightshow, backtraces with the installed backtracer" || fail "$unit"
done
[ -x "$dest/usr/libexec/lightshow/swift-backtrace-static" ] && pass "the crash backtracer is installed" || fail "no backtracer"

make --no-print-directory uninstall DESTDIR="$dest" PREFIX=/usr >"$work/uninstall.log" 2>&1 || fail "make uninstall"
left="$(find "$dest" -type f | sed "s|$dest||")"
[ -z "$left" ] && pass "uninstall removed everything" || fail "left after uninstall: $left"

echo "check-install: $passes passed, $failures failed"
[ "$failures" -eq 0 ]
