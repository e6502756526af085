#!/usr/bin/env bash
# Builds the libFuzzer harnesses (Fuzz/, AddressSanitizer) and runs each for a while.
#
#   scripts/fuzz.sh                 every harness, FUZZ_SECONDS (60) each
#   FUZZ_TARGETS="FuzzBatch FuzzSSHConfig" FUZZ_SECONDS=600 scripts/fuzz.sh
#
# FUZZ_CONFIG is the build configuration (release, the default, runs ten times more inputs a
# second; debug builds faster). FUZZ_RUNS, when set, stops each harness after that many inputs
# instead of after FUZZ_SECONDS. Builds go to .build/fuzz, apart from the ordinary build, since
# every module is compiled again with the sanitizers. The checked-in seeds (Fuzz/corpus/<name>)
# are only read; inputs the fuzzer finds interesting go to .build/fuzz/corpus/<name>, and
# crashes, timeouts and out-of-memory inputs to FUZZ_CRASHES (.build/fuzz/crashes), named
# <harness>-crash-<hash>. Exits non-zero when any harness found one.
set -uo pipefail
cd "$(dirname "$0")/.."
seconds="${FUZZ_SECONDS:-60}"
config="${FUZZ_CONFIG:-release}"
scratch=.build/fuzz
crashes="${FUZZ_CRASHES:-$scratch/crashes}"
targets="${FUZZ_TARGETS:-$(cd Fuzz && ls -d Fuzz*/ | tr -d / | grep -vx 'FuzzSupport\|FuzzSeeds' | tr '\n' ' ')}"
mkdir -p "$scratch/logs" "$crashes"

export CREDVAULT_FUZZ=1
flags=(-c "$config" --scratch-path "$scratch" --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address)
for target in $targets; do
    [ -d "Fuzz/$target" ] || { echo "fuzz: no harness Fuzz/$target" >&2; exit 64; }
    echo "fuzz: building $target ($config)"
    # The linker's warnings about ASan's local symbols are noise: the log is shown on failure only.
    if ! swift build "${flags[@]}" --product "$target" >"$scratch/logs/build-$target.log" 2>&1; then
        grep -v "Cannot export local symbol\|prohibited flag" "$scratch/logs/build-$target.log" | tail -40 >&2
        echo "fuzz: building $target failed" >&2
        exit 1
    fi
done
bin="$(swift build "${flags[@]}" --show-bin-path)"

# Swift's runtime keeps caches for the life of the process, which LeakSanitizer reports at exit.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}"
# The Swift backtracer reads memory ASan has poisoned and reports itself; the runtime's own
# message and ASan's stack are enough.
export SWIFT_BACKTRACE="${SWIFT_BACKTRACE:-enable=no}"
limit=(-max_total_time="$seconds")
[ -n "${FUZZ_RUNS:-}" ] && limit=(-runs="$FUZZ_RUNS")
summary=()
failed=0
for target in $targets; do
    work="$scratch/corpus/$target"
    mkdir -p "$work" "Fuzz/corpus/$target"
    log="$scratch/logs/run-$target.log"
    before=$(ls "$crashes" | grep -c "^$target-" || true)
    "$bin/$target" "${limit[@]}" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$crashes/$target-" "$work" "Fuzz/corpus/$target" >"$log" 2>&1 &
    pid=$!
    wait "$pid"
    status=$?
    # libFuzzer may end the process without running exit handlers: the scratch stores a harness
    # keeps on tmpfs (FuzzConfigMerge) are removed here.
    rm -rf "/dev/shm/credvault-fuzz-config-$pid"
    after=$(ls "$crashes" | grep -c "^$target-" || true)
    executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    found=$((after - before))
    line=$(printf '%-26s %12s executions %8s/s  %d crash(es)' "$target" "${executions:-?}" "${rate:-?}" "$found")
    if [ "$found" -gt 0 ] || [ "$status" -ne 0 ]; then
        failed=1
        line="$line  <- see $log"
        grep -E "^(==[0-9]+==ERROR|SUMMARY|Fatal error|.*invariant broken)" "$log" | head -3 | sed 's/^/    /' >&2
    fi
    echo "$line"
    summary+=("$line")
done
echo "fuzz: per harness (executions, crashes):"
printf '  %s\n' "${summary[@]}"
[ "$failed" -eq 0 ] || { echo "fuzz: crashes in $crashes" >&2; exit 1; }
