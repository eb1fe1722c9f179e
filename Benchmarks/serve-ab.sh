#!/usr/bin/env bash
# Benchmarks/serve-ab.sh — one change to the request path, measured: rounds
# of NIOFloor and each given `aasa` binary under one of `run.sh serve`'s
# loads, with the same servers, client and accounting (serve-lib.sh). The
# order rotates every two rounds, and the second of the two runs the first
# one's order backwards, so within each pair of rounds every binary runs
# once before and once after each other: drift over time favours none. Each
# run appends one JSON line: CPU as the scheduler's nanoseconds and as user
# and system ticks (the kernel's share moves with the machine's state from
# one minute to the next; the user share much less, so a change to aasa's own
# code shows there first). `serve-ab-report.py FILE` prints per-request
# figures and the paired ratios (Benchmarks/PROFILE.md, "req16").
#
#   Benchmarks/serve-ab.sh --floor PATH --bench PATH --out FILE \
#       [--rounds 8] [--duration 10] [--load rotating] AASA [AASA ...]
#
# Loads: one, rotating, c512 (as run.sh), or rotN (16 connections, Host
# rotating over the first N hosts). About 12.5 s per run. FILE must not
# exist: a results file holds one experiment.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
FLOOR="" BENCH="" OUT=""
ROUNDS=8 DURATION=10 WARMUP=2 LOAD=rotating
BINARIES=()
while [ $# -gt 0 ]; do
    case "$1" in
        --floor) FLOOR=$2; shift ;;
        --bench) BENCH=$2; shift ;;
        --out) OUT=$2; shift ;;
        --rounds) ROUNDS=$2; shift ;;
        --duration) DURATION=$2; shift ;;
        --load) LOAD=$2; shift ;;
        -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
        -*) echo "unknown option: $1" >&2; exit 2 ;;
        *) BINARIES+=("$1") ;;
    esac
    shift
done
for tool in "$FLOOR" "$BENCH" "${BINARIES[@]}"; do
    [ -x "$tool" ] || { echo "give --floor, --bench and the aasa binaries as executables (not: '$tool')" >&2; exit 2; }
done
[ ${#BINARIES[@]} -gt 0 ] || { echo "give at least one aasa binary" >&2; exit 2; }
[ -n "$OUT" ] || { echo "give --out FILE" >&2; exit 2; }
[ ! -e "$OUT" ] || { echo "$OUT exists: give a new file for each experiment" >&2; exit 2; }
command -v wrk >/dev/null || { echo "needs wrk (run.sh installs it)" >&2; exit 2; }

# serve-lib.sh's settings, as run.sh sets them.
# shellcheck disable=SC2034 # read by serve-lib.sh
SERVER_CPU=0 CLIENT_CPU=1 HOSTS=1000
WORK=$(mktemp -d "${TMPDIR:-/tmp}/aasa-ab.XXXXXX")
SERVER_PID="" AASA=""
log() { printf '[ab %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "error: $*"; exit 1; }
trap 'stop_server; rm -rf "$WORK"' EXIT
# shellcheck source=Benchmarks/serve-lib.sh
. "$HERE/serve-lib.sh"

load_shape "$LOAD" || { echo "unknown load $LOAD (one, rotating, c512, rotN with N up to $HOSTS)" >&2; exit 2; }
[ -r /proc/self/schedstat ] || { echo "needs /proc/PID/schedstat (a Linux kernel with schedstats)" >&2; exit 2; }
TICKS=$(getconf CLK_TCK)

"$BENCH" sites "$WORK/sites1k" "$HOSTS" >/dev/null
printf 'd%04d.bench.example\n' "$HOSTS" >"$WORK/sites1k/last-host"
slots=$((${#BINARIES[@]} + 1))
for ((round = 1; round <= ROUNDS; round++)); do
    for ((turn = 0; turn < slots; turn++)); do
        step=$turn
        ((round % 2 == 0)) && step=$((slots - 1 - turn))
        slot=$(((step + (round - 1) / 2) % slots))
        if [ "$slot" -eq 0 ]; then
            server=nio-floor name=floor path=$FLOOR
        else
            # shellcheck disable=SC2034 # AASA is read by serve-lib.sh's start_server
            server=aasa name=a$slot path=${BINARIES[$((slot - 1))]} AASA=$path
        fi
        measured_run "$server" "$WORK/sites1k" "$CONNS" "$ROTATE" "$WARMUP" "$DURATION"
        printf '{"load":"%s","round":%d,"name":"%s","path":%s,"ns":%d,"user_ticks":%d,"system_ticks":%d,"ticks_per_s":%d,"wrk":%s}\n' \
            "$LOAD" "$round" "$name" "$(python3 -c 'import json, sys; print(json.dumps(sys.argv[1]))' "$path")" \
            "$RUN_NS" "$RUN_USER" "$RUN_SYSTEM" "$TICKS" "$RUN_WRK" >>"$OUT"
        log "$LOAD round $round $name: $((RUN_NS / 1000000)) ms CPU"
    done
done
