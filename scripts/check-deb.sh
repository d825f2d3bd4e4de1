#!/usr/bin/env bash
# Builds the Debian package (scripts/build-deb.sh) and checks it: lintian reports no error or warning; `dpkg -c`
# lists exactly the files a user gets (binary, the web server's lightshow-web, backtracer, manual page, conffile,
# both units, README, config reference, copyright, changelog, three completions) and nothing from the build tree;
# both binaries are stripped and lightshow-dbgsym holds their debug files by build ID; the conffile is marked;
# Depends comes from the binaries' libraries and libpulse (opened at run time) is only recommended; the version is
# VERSION's, and the packaged binary prints it for --version; the maintainer scripts carry debhelper's systemd
# snippets (enable, try-restart on upgrade, purge) and the start/stop around them.
# Usage: scripts/check-deb.sh [PACKAGE.deb]   (without one, it builds it)
set -euo pipefail
cd "$(dirname "$0")/.."
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failures=0
passes=0
fail() { echo "check-deb: FAIL: $*" >&2; failures=$((failures + 1)); }
pass() { echo "check-deb: ok: $*"; passes=$((passes + 1)); }

version="$(head -n 1 VERSION)"
if [ $# -ge 1 ]; then
    deb="$(realpath "$1")"
else
    t0=$(date +%s)
    deb="$(scripts/build-deb.sh 2>"$work/build.log" | tail -n 1)" || { tail -n 40 "$work/build.log" >&2; fail "build-deb"; exit 1; }
    pass "built $(basename "$deb") ($(du -k "$deb" | cut -f1) KiB) in $(( $(date +%s) - t0 )) s"
fi
[ -f "$deb" ] || { fail "no package at $deb"; exit 1; }

# lintian: no error, no warning, on the whole upload (the package, lightshow-dbgsym, .buildinfo, .changes) when
# the .changes is there, else on the package.
changes="${deb%.deb}.changes"
[ -f "$changes" ] || changes="$deb"
if lintian --fail-on error,warning "$changes" >"$work/lintian" 2>&1; then
    pass "lintian --fail-on error,warning $(basename "$changes"): clean$(grep -E '^[A-Z]: ' "$work/lintian" | tr '\n' ' ')"
else
    fail "lintian $(basename "$changes"): $(grep -E '^[A-Z]: ' "$work/lintian")"
fi

# Every file the package must ship, as dpkg -c prints them (the documentation as dh_compress leaves it).
expected=(
    ./usr/bin/lightshow
    ./usr/libexec/lightshow/lightshow-web
    ./usr/libexec/lightshow/swift-backtrace-static
    ./usr/share/man/man1/lightshow.1.gz
    ./etc/lightshow/lightshow.toml
    ./usr/lib/systemd/system/lightshow.service
    ./usr/lib/systemd/user/lightshow.service
    ./usr/share/doc/lightshow/README.md.gz
    ./usr/share/doc/lightshow/lightshow.toml.gz
    ./usr/share/doc/lightshow/copyright
    ./usr/share/doc/lightshow/changelog.gz
    ./usr/share/bash-completion/completions/lightshow
    ./usr/share/zsh/vendor-completions/_lightshow
    ./usr/share/fish/vendor_completions.d/lightshow.fish
)
dpkg -c "$deb" >"$work/contents"
awk '$1 !~ /^d/ { print $6 }' "$work/contents" | sort >"$work/files"
printf '%s\n' "${expected[@]}" | sort >"$work/expected"
missing="$(comm -13 "$work/files" "$work/expected")"
extra="$(comm -23 "$work/files" "$work/expected")"
[ -z "$missing" ] && pass "dpkg -c lists all ${#expected[@]} files" || fail "missing from the package: $(echo $missing)"
[ -z "$extra" ] && pass "no other file in the package" || fail "unexpected files in the package: $(echo $extra)"
# Directories only as the parents of those files: nothing of the build tree (.build, Sources, debian/) or this host.
stray="$(awk '{ print $6 }' "$work/contents" | grep -E '\.build|/Sources|/debian/|/Tests|/work|/home|/tmp|/root|/opt' || true)"
[ -z "$stray" ] && pass "no path from the build tree" || fail "build-tree paths: $(echo $stray)"
awk '$1 ~ /^-/ && $2 != "root/root" { print $6 " " $2 }' "$work/contents" >"$work/owners"
[ ! -s "$work/owners" ] && pass "every file belongs to root:root" || fail "owners: $(cat "$work/owners")"

dpkg-deb -e "$deb" "$work/control"
conffiles="$(cat "$work/control/conffiles" 2>/dev/null || true)"
[ "$conffiles" = /etc/lightshow/lightshow.toml ] && pass "conffile: $conffiles" || fail "conffiles: '$conffiles'"

field() { dpkg-deb -f "$deb" "$1"; }
package_version="$(field Version)"
[ -n "${DEB_VERSION:-}" ] || { [ "$package_version" = "$version" ] && pass "Version: $package_version (VERSION)" || fail "Version $package_version, VERSION says $version"; }
depends="$(field Depends)"
ok=1
for lib in libc6 libasound2 libfftw3-single3 libsndfile1 libfreetype6 libsystemd0; do
    grep -qE "(^|, )$lib( |,|$)" <<<"$depends" || { fail "Depends lacks $lib (dpkg-shlibdeps): $depends"; ok=0; }
done
grep -q libpulse <<<"$depends" && { fail "libpulse in Depends: $depends"; ok=0; }
[ $ok = 1 ] && pass "Depends (dpkg-shlibdeps): $depends"
[ "$(field Recommends)" = libpulse0 ] && pass "Recommends: libpulse0" || fail "Recommends: '$(field Recommends)'"

dpkg-deb -x "$deb" "$work/root"
# dh_strip: both binaries without symbol table or DWARF, their debug files in lightshow-dbgsym under their build IDs.
dbgsym="$(dirname "$deb")/$(basename "$deb" | sed 's/^lightshow_/lightshow-dbgsym_/')"
dpkg-deb -c "$dbgsym" >"$work/dbgsym" 2>&1 || fail "no $(basename "$dbgsym") beside the package"
for elf in usr/bin/lightshow usr/libexec/lightshow/lightshow-web; do
    sections="$(readelf -SW "$work/root/$elf" | grep -oE '\.(symtab|debug_[a-z_]+)' | sort -u | tr '\n' ' ' || true)"
    id="$(readelf -n "$work/root/$elf" | sed -n 's/.*Build ID: *//p')"
    debug_file="./usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug"
    if [ -z "$sections" ] && [ -n "$id" ] && grep -qF " $debug_file" "$work/dbgsym"; then
        pass "/$elf is stripped; lightshow-dbgsym has ${debug_file#.}"
    else
        fail "/$elf: sections left '${sections}', build ID '$id', $(grep -qF " $debug_file" "$work/dbgsym" && echo "debug file there" || echo "no $debug_file in lightshow-dbgsym")"
    fi
done
shown="$(env -i PATH=/usr/bin:/bin "$work/root/usr/bin/lightshow" --version 2>&1)"
[ "$shown" = "$version" ] && pass "lightshow --version prints $shown" || fail "lightshow --version prints '$shown', VERSION is $version"
grep -q '^ExecStart=/usr/bin/lightshow daemon' "$work/root/usr/lib/systemd/system/lightshow.service" \
    && grep -q 'swift-backtrace=/usr/libexec/lightshow/swift-backtrace-static' "$work/root/usr/lib/systemd/system/lightshow.service" \
    && pass "the system unit runs /usr/bin/lightshow and the packaged backtracer" || fail "system unit paths"
for shell in bash zsh fish; do
    case $shell in bash) f=usr/share/bash-completion/completions/lightshow;; zsh) f=usr/share/zsh/vendor-completions/_lightshow;;
        fish) f=usr/share/fish/vendor_completions.d/lightshow.fish;; esac
    grep -q 'daemon' "$work/root/$f" && grep -q 'watch' "$work/root/$f" || fail "$shell completion lacks subcommands"
done
pass "completions name the subcommands"

# Maintainer scripts: debhelper's snippets plus debian/postinst's start and debian/prerm's stop.
has() { grep -qF -- "$2" "$work/control/$1" || { fail "$1 lacks: $2"; return 1; }; }
has postinst 'deb-systemd-helper enable '"'"'lightshow.service'"'" \
    && has postinst 'deb-systemd-invoke try-restart '"'"'lightshow.service'"'" \
    && has postinst 'deb-systemd-invoke start lightshow.service' \
    && has prerm 'deb-systemd-invoke stop lightshow.service' \
    && has postrm 'deb-systemd-helper purge '"'"'lightshow.service'"'" \
    && has postrm 'rm -rf /var/lib/private/lightshow /var/lib/lightshow' \
    && pass "maintainer scripts: enable + start on install, try-restart on upgrade, stop on remove, purge state"
# dh_installsystemduser --no-enable: the user unit is enabled again on upgrade only where it was (debian-installed).
if grep -q 'deb-systemd-helper --user debian-installed' "$work/control/postinst"; then
    pass "the user unit is left for each user to enable"
else fail "the user unit's postinst snippet is not debhelper's --no-enable one"; fi

echo "check-deb: $passes passed, $failures failed"
[ "$failures" -eq 0 ]
