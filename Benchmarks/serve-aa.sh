#!/usr/bin/env bash
# Benchmarks/serve-aa.sh — the A/A experiment behind the origin table's
# estimator (docs/DECISIONS.md, "CPU per request against NIOFloor";
# Benchmarks/PROFILE.md, "req15"): rounds of NIOFloor, NIOFloor, aasa, aasa
# (slots F1 F2 A1 A2), one load at a time, with the same servers, client and
# process accounting as `run.sh serve` (serve-lib.sh). Each run appends one
# JSON line (CPU as 100 Hz ticks and as the scheduler's nanoseconds);
# `serve-aa-estimators.py FILE` then says how far each estimator moves
# between identical servers.
#
#   Benchmarks/serve-aa.sh --aasa PATH --floor PATH --bench PATH --out FILE \
#       [--rounds 6] [--duration 10] [--loads "one rotating c512"]
#
# About 4 x 12 s per round and load: the defaults take ~15 minutes.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
AASA="" FLOOR="" BENCH="" OUT=""
ROUNDS=6 DURATION=10 WARMUP=2 LOADS="one rotating c512"
while [ $# -gt 0 ]; do
    case "$1" in
        --aasa) AASA=$2; shift ;;
        --floor) FLOOR=$2; shift ;;
        --bench) BENCH=$2; shift ;;
        --out) OUT=$2; shift ;;
        --rounds) ROUNDS=$2; shift ;;
        --duration) DURATION=$2; shift ;;
        --loads) LOADS=$2; shift ;;
        -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
        *) echo "unknown option: $1" >&2; exit 2 ;;
    esac
    shift
done
for tool in "$AASA" "$FLOOR" "$BENCH"; do
    [ -x "$tool" ] || { echo "give --aasa, --floor and --bench as executables (not: '$tool')" >&2; exit 2; }
done
[ -n "$OUT" ] || { echo "give --out FILE" >&2; exit 2; }
command -v wrk >/dev/null || { echo "needs wrk (run.sh installs it)" >&2; exit 2; }

# serve-lib.sh's settings, as run.sh sets them.
# shellcheck disable=SC2034 # read by serve-lib.sh
SERVER_CPU=0 CLIENT_CPU=1 HOSTS=1000
WORK=$(mktemp -d "${TMPDIR:-/tmp}/aasa-aa.XXXXXX")
SERVER_PID=""
log() { printf '[aa %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "error: $*"; exit 1; }
trap 'stop_server; rm -rf "$WORK"' EXIT
# shellcheck source=Benchmarks/serve-lib.sh
. "$HERE/serve-lib.sh"

"$BENCH" sites "$WORK/sites1k" "$HOSTS" >/dev/null
printf 'd%04d.bench.example\n' "$HOSTS" >"$WORK/sites1k/last-host"
for load in $LOADS; do
    load_shape "$load" || die "unknown load $load (one, rotating, c512, rotN)"
    for ((round = 1; round <= ROUNDS; round++)); do
        for slot in F1 F2 A1 A2; do
            server=nio-floor
            [[ $slot == A* ]] && server=aasa
            measured_run "$server" "$WORK/sites1k" "$CONNS" "$ROTATE" "$WARMUP" "$DURATION"
            printf '{"load":"%s","round":%d,"slot":"%s","ticks":%d,"ns":%d,"wrk":%s}\n' \
                "$load" "$round" "$slot" "$RUN_TICKS" "$RUN_NS" "$RUN_WRK" >>"$OUT"
            log "$load round $round $slot: ticks $RUN_TICKS, ns $RUN_NS"
        done
    done
done
