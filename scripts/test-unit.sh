#!/bin/sh
# `make test-unit`: the tests that start no outside process (scripts/unit-test-skips.sh names the others), in two
# test processes side by side. Each process runs its tests one at a time: many of them keep to deadlines, and tests
# running at once in one process starve each other's cooperative pool. The groups are balanced by running time.
# The test bundle is run directly: `swift test` holds a lock on .build for its whole run, which would queue them.
set -eu
cd "$(dirname "$0")/.."
bundle=.build/debug/lightshowPackageTests.xctest
[ -x "$bundle" ] || { echo "test-unit: $bundle is missing; run swift build --build-tests first"; exit 1; }
skip=$(scripts/unit-test-skips.sh)
logs=$(mktemp -d "${TMPDIR:-/tmp}/lightshow-unit.XXXXXX")
trap 'rm -rf "$logs"' EXIT
# Two processes for two cores, balanced by their serial running time (about 35 s each on an idle machine).
set -- \
    'LightShowRenderTests|LightShowConfigTests|LightShowAnalysisTests|LightShowCoreTests' \
    'LightShowAudioTests|LightShowLightsTests|LightShowControlTests|LightShowDaemonTests|LightShowSystemTests|LightShowTerminalTests|LightShowEngineTests|LightShowNowPlayingTests'
pids=""
index=0
for group in "$@"; do
    index=$((index + 1))
    "$bundle" --testing-library swift-testing --no-parallel --skip "$skip" --filter "^($group)\\." > "$logs/$index.log" 2>&1 &
    pids="$pids $!"
done
failed=0
index=0
for pid in $pids; do
    index=$((index + 1))
    if ! wait "$pid"; then
        failed=1
        grep -E '✘|error:' "$logs/$index.log" || tail -n 20 "$logs/$index.log"
    fi
    grep -E 'Test run with' "$logs/$index.log" || true
done
exit $failed
