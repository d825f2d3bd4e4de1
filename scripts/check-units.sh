#!/usr/bin/env bash
# Checks the systemd units: `systemd-analyze verify` must print nothing, and the system unit's
# offline security exposure must stay at or below 1.7 (systemd's scale: threshold 20).
# Usage: scripts/check-units.sh [LIGHTSHOW_BINARY]   (default .build/debug/lightshow)
set -euo pipefail
cd "$(dirname "$0")/.."
binary="$(realpath "${1:-.build/debug/lightshow}")"
threshold=17
[ -x "$binary" ] || { echo "check-units: $binary is not an executable; build first" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# verify checks that ExecStart= exists: point the installed path at the binary just built.
for unit in systemd/*.service; do
    sed "s|/usr/local/bin/lightshow|$binary|g" "$unit" > "$work/$(basename "$unit")"
done

status=0
for unit in "$work"/*.service; do
    output="$(systemd-analyze verify --man=no "$unit" 2>&1)" || true
    if [ -n "$output" ]; then
        echo "check-units: systemd-analyze verify $(basename "$unit"):" >&2
        echo "$output" >&2
        status=1
    fi
done

if ! report="$(systemd-analyze security --offline=yes --threshold=$threshold "$work/lightshow.service" 2>&1)"; then
    echo "$report" >&2
    echo "check-units: lightshow.service exposure is above $((threshold / 10)).$((threshold % 10))" >&2
    status=1
fi
echo "$report" | grep 'Overall exposure level' || true
[ $status -eq 0 ] && echo "check-units: both units verify cleanly"
exit $status
