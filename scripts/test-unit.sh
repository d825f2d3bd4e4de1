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
# Two processes for two cores, about even by their serial running time (35-45 s each): the first runs these
# targets, the second every other one.
first='LightShowRenderTests|LightShowConfigTests|LightShowAnalysisTests|LightShowCoreTests'
"$bundle" --testing-library swift-testing --no-parallel --skip "$skip" --filter "^($first)\\." > "$logs/1.log" 2>&1 &
one=$!
"$bundle" --testing-library swift-testing --no-parallel --skip "$skip|^($first)\\." > "$logs/2.log" 2>&1 &
two=$!
failed=0
for run in "1 $one" "2 $two"; do
    set -- $run
    if ! wait "$2"; then
        failed=1
        grep -E '✘|error:' "$logs/$1.log" || tail -n 20 "$logs/$1.log"
    fi
    grep -E 'Test run with' "$logs/$1.log" || true
done
exit $failed
