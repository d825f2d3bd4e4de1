#!/usr/bin/env bash
# Runs every libFuzzer target for FUZZ_SECONDS each (default 60) and prints executions and crashes per target.
# Usage: scripts/fuzz.sh [TARGET…]   (default: all)   FUZZ_SECONDS=600 FUZZ_JOBS=1 scripts/fuzz.sh FuzzConfig
# Targets build into .build/fuzz with -sanitize=fuzzer,address (release, with -enable-testing for the targets that
# reach internal parsers). Each run starts from a copy of Tests/Fuzz/Corpus/<target> in .build/fuzz/corpus/<target>
# (kept between runs, so coverage accumulates); crashes land in .build/fuzz/crashes/<target>/. Not run in CI.
# FUZZ_JOBS=N (default 1) fuzzes each target in N processes at once (libFuzzer's -fork=N), one per core.
set -uo pipefail
cd "$(dirname "$0")/.."
seconds="${FUZZ_SECONDS:-60}"
jobs="${FUZZ_JOBS:-1}"
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(FuzzConfig FuzzControl FuzzMPD FuzzPCM FuzzAudioFile FuzzKeys FuzzWeb FuzzWebGate)
build=(--build-path .build/fuzz -c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING -Xswiftc -enable-testing)

for target in "${targets[@]}"; do
    swift build "${build[@]}" --product "$target" 2>&1 | grep -E 'error|Compiling|Build of' | grep -v Compiling || exit 1
done

status=0
printf '%-14s %12s %10s %8s  %s\n' target executions exec/s crashes corpus
for target in "${targets[@]}"; do
    corpus=".build/fuzz/corpus/$target" crashes=".build/fuzz/crashes/$target" log=".build/fuzz/$target.log"
    mkdir -p "$corpus" "$crashes"
    cp -n "Tests/Fuzz/Corpus/$target"/* "$corpus"/ 2>/dev/null
    # -rss_limit_mb: a target must not need more than this for any input (a header claiming 44 GB must be refused).
    # TOMLKit leaks on every parse error, every string value and every `keys` (third-party, a few hundred bytes a
    # parse): leaks are not checked for the config target, neither per input nor at exit.
    extra=() asan=""; [ "$target" = FuzzConfig ] && { extra=(-detect_leaks=0); asan=detect_leaks=0; }
    [ "$jobs" -gt 1 ] && extra+=(-fork="$jobs")
    ASAN_OPTIONS="$asan" .build/fuzz/release/"$target" "${extra[@]}" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=1024 -max_len=65536 \
        -print_final_stats=1 -artifact_prefix="$crashes/" "$corpus" >"$log" 2>&1
    runs="$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)"
    rate="$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)"
    if [ "$jobs" -gt 1 ]; then
        # Fork mode prints no final stats: its progress lines (#EXECUTIONS: … time: Ns) carry the totals.
        last="$(grep -E '^#[0-9]+: ' "$log" | tail -1)"
        runs="$(sed -E 's/^#([0-9]+):.*/\1/' <<<"$last")"
        elapsed="$(grep -oE 'time: [0-9]+s' <<<"$last" | grep -oE '[0-9]+')"
        [ -n "$runs" ] && [ "${elapsed:-0}" -gt 0 ] && rate=$((runs / elapsed))
    fi
    found="$(find "$crashes" -type f | wc -l)"
    [ "$found" -gt 0 ] && status=1
    printf '%-14s %12s %10s %8s  %s files\n' "$target" "${runs:-?}" "${rate:-?}" "$found" "$(find "$corpus" -type f | wc -l)"
done
[ $status -eq 0 ] || echo "fuzz: crashes found; inputs in .build/fuzz/crashes/, logs in .build/fuzz/*.log" >&2
exit $status
