#!/bin/bash
# `make test`'s last step: every test, one at a time (many drive real processes against deadlines, and on a 2-core
# machine tests at once starve them). The full log streams as it runs; if any test fails, the failures and what
# each recorded are printed again at the very end, because CI keeps only the tail of a long run.
set -uo pipefail
cd "$(dirname "$0")/.."
log=$(mktemp "${TMPDIR:-/tmp}/lightshow-test.XXXXXX")
trap 'rm -f "$log"' EXIT
"${SWIFT:-swift}" test --skip-build --no-parallel "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
if [ "$status" -ne 0 ]; then
    echo
    echo "==== failed tests (repeated from above) ===="
    # An issue's line and the indented detail lines Swift Testing prints under it.
    grep -E -A6 '✘ Test .*(recorded an issue|failed)|error:|Fatal error|Crash|signal [0-9]+' "$log" \
        | grep -v -E '^\s*$' | grep -v '◇' | head -n 120
    grep -E 'Test run with' "$log" | tail -n 1
fi
exit "$status"
