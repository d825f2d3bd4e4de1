#!/usr/bin/env bash
# `make install DESTDIR=…` into a scratch directory, then checks what a user would get: the installed binary needs
# nothing from the Swift toolchain (ldd lists no Swift runtime library, no RUNPATH points into the toolchain), a
# copy of it elsewhere runs `--help`, `man -l` renders the installed page, and `make uninstall` takes it all away
# again (but an edited config).
set -euo pipefail
cd "$(dirname "$0")/.."
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
dest="$work/root"
failures=0
passes=0
fail() { echo "check-install: FAIL: $*" >&2; failures=$((failures + 1)); }
pass() { echo "check-install: ok: $*"; passes=$((passes + 1)); }

make --no-print-directory install DESTDIR="$dest" PREFIX=/usr >"$work/install.log" 2>&1 || { cat "$work/install.log" >&2; fail "make install"; exit 1; }
binary="$dest/usr/bin/lightshow"
[ -x "$binary" ] && pass "installed $binary" || fail "no executable at $binary"

toolchain="$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")"
if ldd "$binary" | grep -E 'libswift|libFoundation|libdispatch|BlocksRuntime' >"$work/ldd" ; then
    fail "links the Swift runtime dynamically: $(tr '\n' ' ' <"$work/ldd")"
else
    pass "ldd lists no Swift runtime library"
fi
if readelf -d "$binary" | grep -E 'RUNPATH|RPATH' | grep -q "$toolchain\|/swift"; then
    fail "RUNPATH into the toolchain: $(readelf -d "$binary" | grep -E 'RUNPATH|RPATH')"
else
    pass "no RUNPATH into the toolchain"
fi

# A copy elsewhere, run with the toolchain out of reach of the loader's search.
mkdir -p "$work/elsewhere"
cp "$binary" "$work/elsewhere/lightshow"
if env -i PATH=/usr/bin:/bin LD_LIBRARY_PATH= "$work/elsewhere/lightshow" --help >"$work/help" 2>&1 && grep -q "USAGE: lightshow" "$work/help"; then
    pass "a copy elsewhere runs --help"
else
    fail "a copy elsewhere does not run --help: $(head -c 300 "$work/help")"
fi

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
