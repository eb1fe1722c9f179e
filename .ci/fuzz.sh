#!/usr/bin/env bash
# Builds the libFuzzer targets in Fuzz/ and runs each for a bounded time.
#
#   .ci/fuzz.sh [seconds]        # default 60 s per target
#
# Environment:
#   FUZZ_SCRATCH_PATH  build folder (default Fuzz/.build)
#   FUZZ_OUTPUT        logs and crash files (default Fuzz/corpus-ci, git-ignored)
#
# Each target first re-runs its reproducers in Fuzz/regressions/<target>/,
# then fuzzes from its seed corpus (Fuzz/corpus/<target>/) into a working
# corpus Fuzz/corpus-<target>/ (git-ignored; kept between local runs).
# Prints executions per target; exits non-zero if any target crashed, hung
# or ran out of memory, with the path of the input that did it.
#
# FuzzAASAKit is built -c release (AASAKit's public API is all it needs; the
# optimiser makes it ~10x faster). FuzzHTTP drives the server's internal
# pipeline through `@testable import`, which needs the -enable-testing that
# only a debug build has.
set -uo pipefail

seconds="${1:-60}"
root="$(cd "$(dirname "$0")/.." && pwd)"
fuzz="$root/Fuzz"
scratch="${FUZZ_SCRATCH_PATH:-$fuzz/.build}"
output="${FUZZ_OUTPUT:-$fuzz/corpus-ci}"
mkdir -p "$output"

# libFuzzer must see the crash signal itself to write the crashing input;
# Swift's backtracer would take it first.
export SWIFT_BACKTRACE=enable=no

build() {  # configuration product
    echo "== building $2 ($1)"
    if ! swift build --package-path "$fuzz" --scratch-path "$scratch" -c "$1" --product "$2" \
        -Xswiftc -sanitize=fuzzer >"$output/build-$2.log" 2>&1; then
        grep -E 'error' -A3 "$output/build-$2.log" | head -40
        echo "error: $2 did not build; log: $output/build-$2.log" >&2
        exit 2
    fi
}

failed=0
summary=()

run() {  # configuration product corpus-name
    local configuration="$1" product="$2" name="$3"
    local binary log corpus status executions artifact
    binary="$(swift build --package-path "$fuzz" --scratch-path "$scratch" -c "$configuration" --show-bin-path)/$product"
    log="$output/$name.log"
    corpus="$fuzz/corpus-$name"
    mkdir -p "$corpus"

    local regressions=("$fuzz/regressions/$name"/*)
    if [[ -e "${regressions[0]}" ]]; then
        echo "== $product: ${#regressions[@]} regression input(s)"
        if ! "$binary" "${regressions[@]}" >"$output/$name-regressions.log" 2>&1; then
            echo "FAIL: $product crashes on a regression input; see $output/$name-regressions.log"
            grep -E 'Running: |ERROR|Fatal error' "$output/$name-regressions.log" | tail -5
            failed=1
        fi
    fi

    echo "== $product: fuzzing for ${seconds}s"
    "$binary" "$corpus" "$fuzz/corpus/$name" \
        -dict="$fuzz/dictionaries/$name.dict" \
        -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=5 \
        -print_final_stats=1 -artifact_prefix="$output/$name-" >"$log" 2>&1
    status=$?
    executions="$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -Eo '[0-9]+$' | tail -1)"
    summary+=("$product: ${executions:-?} executions in ${seconds}s (exit $status)")
    if [[ $status -ne 0 ]]; then
        failed=1
        echo "FAIL: $product exited $status; log: $log"
        grep -E '^==[0-9]+== ERROR|Fatal error|ERROR: libFuzzer' "$log" | head -5
        artifact="$(grep -Eo "Test unit written to [^ ]+" "$log" | tail -1 | sed 's/Test unit written to //')"
        [[ -n "$artifact" ]] && echo "crash file: $artifact"
    fi
}

start=$(date +%s)
build release FuzzAASAKit
build debug FuzzHTTP
built=$(date +%s)
run release FuzzAASAKit aasakit
run debug FuzzHTTP http
end=$(date +%s)

echo "== summary (build $((built - start))s, fuzzing $((end - built))s)"
printf '%s\n' "${summary[@]}"
exit $failed
