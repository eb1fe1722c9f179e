#!/usr/bin/env bash
# Benchmarks/startup.sh — `aasa serve` at 10,000 hosts: launch to the last
# host's first 200 against Python reading and `json.loads`-ing the same files,
# and RSS growth per host (1,000 -> 10,000 hosts) against the file size.
#
#   Benchmarks/startup.sh                 3 interleaved runs
#   Benchmarks/startup.sh --runs 5 --allocations
#
# Options: --runs N, --scale N (default 10000), --small N (default 1000),
#          --allocations (heaptrack: allocations and live heap per host at the small count),
#          --perf (perf stat: the whole process's instructions at the scale),
#          --aasa PATH / --bench PATH (use these binaries instead of building them),
#          --sites DIR (reuse trees made by an earlier run; default: a temp dir).
# The server is not pinned: validation runs on every core NIO is given, and
# the Python reference uses one. Needs python3 (and heaptrack for --allocations).
# Prints a summary, then one line `STARTUP_JSON {...}` for report generation
# (Benchmarks/run.sh): a JSON object with, among others,
#   "startup_ratio"             aasa launch -> last host 200, over Python read + json.loads (target <= 3)
#   "aasa_last_host_200_seconds", "python_read_parse_seconds"   the two medians
#   "rss_growth_per_file_size"  RSS growth per host, over the mean file size (target <= 3)
#   "rss_growth_bytes_per_host", "mean_file_bytes", "hosts", "runs", "cores", "loadavg_start/end"
# The two target rows are startup_ratio and rss_growth_per_file_size.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$HERE")
AASA=""
BENCH=""
SITES=""
ARGS=()
while [ $# -gt 0 ]; do
    case "$1" in
        --aasa) AASA=$2; shift ;;
        --bench) BENCH=$2; shift ;;
        --sites) SITES=$2; shift ;;
        --runs|--scale|--small) ARGS+=("$1" "$2"); shift ;;
        --allocations|--perf) ARGS+=("$1") ;;
        -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
        *) echo "unknown option: $1" >&2; exit 2 ;;
    esac
    shift
done

log() { printf '[startup %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

# Built as run.sh builds them: as the release is (static Swift runtime, the
# program's own symbols not exported).
STATIC=(--static-swift-stdlib -Xlinker --no-export-dynamic)
if [ -z "$AASA" ]; then
    log "building aasa (release as scripts/release.sh builds it, scratch path .build-release)"
    swift build -c release "${STATIC[@]}" --product aasa --scratch-path "$ROOT/.build-release" --package-path "$ROOT" >&2
    AASA="$(swift build -c release "${STATIC[@]}" --scratch-path "$ROOT/.build-release" --package-path "$ROOT" --show-bin-path)/aasa"
fi
if [ -z "$BENCH" ]; then
    log "building aasa-bench (release, static Swift runtime, scratch path Benchmarks/.build-release)"
    swift build -c release "${STATIC[@]}" --scratch-path "$HERE/.build-release" --package-path "$HERE" --product aasa-bench >&2
    BENCH="$(swift build -c release "${STATIC[@]}" --scratch-path "$HERE/.build-release" --package-path "$HERE" --show-bin-path)/aasa-bench"
fi

scale=10000
small=1000
for ((i = 0; i < ${#ARGS[@]}; i++)); do
    case "${ARGS[$i]}" in
        --scale) scale=${ARGS[$((i + 1))]} ;;
        --small) small=${ARGS[$((i + 1))]} ;;
    esac
done
if [ -z "$SITES" ]; then
    SITES=$(mktemp -d /tmp/aasa-startup.XXXXXX)
    trap 'rm -rf "$SITES"' EXIT
fi
for count in "$small" "$scale"; do
    if [ ! -d "$SITES/sites$count/aasa" ]; then
        log "generating $count hosts in $SITES/sites$count"
        "$BENCH" sites "$SITES/sites$count" "$count"
    fi
done
python3 "$HERE/startup.py" --aasa "$AASA" --sites "$SITES" "${ARGS[@]}"
