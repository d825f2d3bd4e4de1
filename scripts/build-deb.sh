#!/usr/bin/env bash
# Builds lightshow_<version>_<arch>.deb with dpkg-buildpackage and debhelper (debian/) into DEB_OUT (default
# .build/deb), and prints its path. The version is the first line of VERSION, written into a generated
# debian/changelog dated by the last commit (or by VERSION itself in a tarball), so the package is reproducible.
# DEB_VERSION (e.g. 0.1.0+b1) gives a rebuild of the same source a higher package version, as Debian's binNMUs do;
# `lightshow --version` stays VERSION's.
set -euo pipefail
cd "$(dirname "$0")/.."
version="$(head -n 1 VERSION)"
deb_version="${DEB_VERSION:-$version}"
out="$(realpath -m "${DEB_OUT:-.build/deb}")"
maintainer="$(sed -n 's/^Maintainer: *//p' debian/control)"
date="$(git log -1 --format=%cD 2>/dev/null || true)"
[ -n "$date" ] || date="$(date -R -r VERSION)"
if ! dpkg --validate-version "$deb_version" 2>/dev/null || [[ "$deb_version" == *-* ]]; then
    echo "build-deb: '$deb_version' is not a native Debian version (digits first, no '-')" >&2
    exit 1
fi

# Written for this build only: a changelog left behind would give the next build by other means a stale version.
trap 'rm -f debian/changelog' EXIT
cat >debian/changelog <<CHANGELOG
lightshow ($deb_version) unstable; urgency=medium

  * lightshow $version, built from the project's own debian/ directory.

 -- $maintainer  $date
CHANGELOG

mkdir -p "$out"
arch="$(dpkg --print-architecture)"
rm -f "$out"/lightshow_"$deb_version"_"$arch".* "$out"/lightshow-dbgsym_"$deb_version"_"$arch".*
# -b: binary packages only; -us -uc: unsigned. The .deb goes to DEB_OUT (debian/rules' dh_builddeb), and so do the
# .buildinfo and .changes, which look for it there (-u).
DEB_OUT="$out" dpkg-buildpackage -b -us -uc \
    --buildinfo-option=-u"$out" --buildinfo-file="$out/lightshow_${deb_version}_$arch.buildinfo" \
    --changes-option=-u"$out" --changes-file="$out/lightshow_${deb_version}_$arch.changes" >&2
# The staging tree (debian/lightshow) and debhelper's logs go; the build's own .build stays (debian/rules).
debian/rules clean >/dev/null 2>&1
echo "$out/lightshow_${deb_version}_$arch.deb"
