#!/usr/bin/env bash
# The byte-identity check of a speed change to `aasa test-links` / `aasa match -`:
# every report the two binaries write for the same input is compared byte for
# byte (standard output, standard error, exit status). A change that makes the
# link commands faster must print exactly what they printed before.
#
# usage: Benchmarks/links-same.sh NEW_AASA BASE_AASA [--bench AASA_BENCH] [--work DIR]
#
#   NEW_AASA, BASE_AASA  the binaries compared (e.g. a release build of the
#                        change and one of the commit before it)
#   --bench PATH         aasa-bench, to write the link corpus when DIR has none
#                        (default: Benchmarks/.build/release/aasa-bench)
#   --work DIR           where the corpus lives or is written (default: a
#                        temporary directory, removed at the end)
#
# Cases: the benchmark corpus (400 rules, 100,000 URLs; `aasa-bench
# link-corpus`) in every report format and with --strict, --coverage,
# --bundle-id, no app and --domain; the demo brand (`aasa/`, every links file,
# Apple and Android entries) in every format and for one of its hosts; `match -`
# over the corpus's URLs in both formats. Prints `same` or `DIFF` per case (`FAIL` when the new binary
# exits 2 or more or prints nothing: a case that did not run is no pass); exit 0
# when all are the same, 1 when any differs or fails, 2 on bad usage.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
usage() { sed -n '7,15p' "$0" >&2; exit 2; }
[ $# -ge 2 ] || usage
for binary in "$1" "$2"; do
    if [ ! -f "$binary" ] || [ ! -x "$binary" ]; then
        echo "links-same.sh: $binary is not an executable" >&2
        exit 2
    fi
done
new="$(realpath "$1")"
base="$(realpath "$2")"
shift 2
# The same binary twice (or a base not rebuilt) would be `same` everywhere.
if cmp -s "$new" "$base"; then
    echo "links-same.sh: $new and $base are the same binary: nothing would be compared" >&2
    exit 2
fi
bench="$here/.build/release/aasa-bench"
work=""
while [ $# -gt 0 ]; do
    [ $# -ge 2 ] || usage
    case "$1" in
        --bench) bench="$2"; shift 2 ;;
        --work) work="$2"; shift 2 ;;
        *) usage ;;
    esac
done
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
if [ -z "$work" ]; then work="$scratch/corpus"; fi
mkdir -p "$work"
# Absolute: the binaries run from the scratch directory.
work="$(cd "$work" && pwd)"
if [ ! -f "$work/links.json" ]; then
    [ -x "$bench" ] || { echo "links-same.sh: no corpus in $work and no aasa-bench at $bench (--bench)" >&2; exit 2; }
    "$bench" link-corpus "$work" --rules 400 --urls 100000 >/dev/null
fi
file="$work/apple-app-site-association"
links="$work/links.json"
app=ABCDE12345.com.brand.app
# One URL per line for `match -`, in the links file's order.
python3 -c '
import json, sys
links = json.load(open(sys.argv[1]))
sys.stdout.write("".join(url + "\n" for url in links["deep_linkable_urls"] + links["non_deep_linkable_urls"]))
' "$links" >"$scratch/urls.txt"

demo="$(cd "$here/.." && pwd)/aasa"
demo_links=()
for list in "$demo"/*/links.json; do demo_links+=(--links "$list"); done
demo_apps=(--bundle-id com.pastaio.app --package com.pastaio.app)
corpus=(test-links --file "$file" --links "$links")
demo_run=(test-links --dir "$demo" "${demo_links[@]}")

status=0
# Runs `$@` with both binaries (from the scratch directory, so relative
# paths in the output are the same) and compares everything they wrote.
compare() {
    local name="$1" input="$2"
    shift 2
    # Nothing of the case before may stand in for this one's output.
    rm -f "$scratch"/base.* "$scratch"/new.*
    for side in base new; do
        local binary="$base"
        [ "$side" = new ] && binary="$new"
        (cd "$scratch" && "$binary" "$@" <"$input" >"$scratch/$side.out" 2>"$scratch/$side.err"; echo $? >"$scratch/$side.rc") || true
    done
    # Two binaries failing alike on an input that went missing are not a
    # pass: every case must run (exit 0 or 1) and print something.
    local code
    code="$(cat "$scratch/new.rc")"
    if [ "$code" -gt 1 ] || [ ! -s "$scratch/new.out" ]; then
        printf 'FAIL  %s: exit %s, %s bytes on stdout: %s\n' "$name" "$code" "$(wc -c <"$scratch/new.out")" \
            "$(head -c 300 "$scratch/new.err")"
        status=1
    elif cmp -s "$scratch/base.out" "$scratch/new.out" && cmp -s "$scratch/base.err" "$scratch/new.err" &&
        cmp -s "$scratch/base.rc" "$scratch/new.rc"; then
        printf 'same  %s (exit %s, %s bytes)\n' "$name" "$(cat "$scratch/new.rc")" "$(wc -c <"$scratch/new.out")"
    else
        printf 'DIFF  %s\n' "$name"
        # Where they part: the first differing byte of each stream.
        for stream in out err rc; do
            cmp "$scratch/base.$stream" "$scratch/new.$stream" 2>&1 | head -1 || true
        done
        status=1
    fi
}

compare text /dev/null "${corpus[@]}" --app-id "$app"
for format in json junit github; do
    compare "$format" /dev/null "${corpus[@]}" --app-id "$app" --format "$format"
done
compare strict /dev/null "${corpus[@]}" --app-id "$app" --strict
compare coverage /dev/null "${corpus[@]}" --app-id "$app" --coverage
compare coverage-json /dev/null "${corpus[@]}" --app-id "$app" --coverage --format json
compare bundle-id /dev/null "${corpus[@]}" --bundle-id com.brand.app
compare no-app /dev/null "${corpus[@]}"
compare domain /dev/null "${corpus[@]}" --app-id "$app" --domain links.bench.example
compare demo-text /dev/null "${demo_run[@]}" "${demo_apps[@]}" --strict --coverage
compare demo-json /dev/null "${demo_run[@]}" "${demo_apps[@]}" --format json --coverage
compare demo-junit /dev/null "${demo_run[@]}" "${demo_apps[@]}" --format junit
compare demo-github /dev/null "${demo_run[@]}" "${demo_apps[@]}" --format github
# One host of the brand: the other hosts' URLs are skipped, with a warning.
compare demo-domain /dev/null "${demo_run[@]}" "${demo_apps[@]}" --domain www.pastaio.example
for format in json text; do
    compare "match-$format" "$scratch/urls.txt" match - --file "$file" --app-id "$app" --format "$format"
done
exit "$status"
