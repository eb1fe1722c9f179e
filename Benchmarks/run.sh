#!/usr/bin/env bash
# Benchmarks/run.sh — where users wait, against what they would otherwise use,
# measured in the same run. Parts (all of them when none is named):
#
#   links    `aasa test-links` and `aasa match -` over 100,000 URLs (400 rules)
#            vs the naive Python loop (naive_links.py), decisions checked identical
#   startup  Benchmarks/startup.sh: `aasa serve` start → the last of 10,000 hosts
#            answers, vs Python's read-and-parse; RSS growth per host vs the file size
#   serve    `aasa serve` vs nginx ("files" and "map") and NIOFloor (the least a server
#            on NIO's HTTP/1 decoder does per request), scale, reload under load
#   matcher  AASAMatcher vs a naive NSRegularExpression translation
#
#   Benchmarks/run.sh                 full run, rewrites BENCHMARKS.md (~20 minutes after the builds)
#   Benchmarks/run.sh links startup   only these parts (tables printed, BENCHMARKS.md left alone)
#   Benchmarks/run.sh --quick         smoke test (1 run, 3 s each, fewer reloads)
#
# Options: --runs N, --duration SECONDS, --links-rounds N (the link-list part's
#          interleaved rounds, default 10), --no-write (do not rewrite BENCHMARKS.md),
#          --keep (keep the temp dir), --note TEXT (written into BENCHMARKS.md),
#          --aasa PATH / --bench PATH (use these release binaries instead of building them).
# Needs: Debian with the Swift toolchain; installs wrk, nginx, curl, python3 with
# apt-get when missing. Prints tables and one `BENCHMARK_JSON {...}` line.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$HERE")

ALL_PARTS=(links startup serve matcher)
PARTS=()
QUICK=0
RUNS=3
DURATION=10
# The link-list part's rounds: each is a few seconds (the Python reference
# and four ~0.1 s runs), and one run of `aasa` moves by ±10 % from round to
# round on this VM, as much as a session's gains; a median of 3 did not
# tell them apart (see DECISIONS, "How many rounds the link-list row takes").
LINKS_ROUNDS=10
WRITE_MD=1
KEEP=0
NOTE=""
AASA=""
BENCH=""
while [ $# -gt 0 ]; do
    case "$1" in
        links|startup|serve|matcher) PARTS+=("$1") ;;
        --quick) QUICK=1 ;;
        --runs) RUNS=$2; shift ;;
        --duration) DURATION=$2; shift ;;
        --links-rounds) LINKS_ROUNDS=$2; shift ;;
        --no-write) WRITE_MD=0 ;;
        --keep) KEEP=1 ;;
        --note) NOTE=$2; shift ;;
        --aasa) AASA=$2; shift ;;
        --bench) BENCH=$2; shift ;;
        -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
        *) echo "unknown option or part: $1" >&2; exit 2 ;;
    esac
    shift
done
# BENCHMARKS.md holds one whole run: a run of some parts only prints its tables.
if [ "${#PARTS[@]}" -eq 0 ]; then
    PARTS=("${ALL_PARTS[@]}")
else
    WRITE_MD=0
fi
part() { [[ " ${PARTS[*]} " == *" $1 "* ]]; }
if [ "$QUICK" = 1 ]; then
    RUNS=1
    DURATION=3
fi
WARMUP=2
RELOADS=100
RELOAD_SAMPLES=5
if [ "$QUICK" = 1 ]; then
    WARMUP=1
    RELOADS=10
    RELOAD_SAMPLES=2
fi
CONNS_MODEST=16
CONNS_MANY=512
HOSTS=1000
SCALE_HOSTS=10000

log() { printf '[bench %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "error: $*"; exit 1; }

# ---------------------------------------------------------------- tools

need_apt=()
command -v python3 >/dev/null 2>&1 || need_apt+=(python3)
command -v taskset >/dev/null 2>&1 || need_apt+=(util-linux)
if part serve; then
    command -v wrk >/dev/null 2>&1 || need_apt+=(wrk)
    command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || need_apt+=(nginx)
    command -v curl >/dev/null 2>&1 || need_apt+=(curl)
fi
if [ "${#need_apt[@]}" -gt 0 ]; then
    log "installing ${need_apt[*]}"
    SUDO=""
    [ "$(id -u)" = 0 ] || SUDO=sudo
    $SUDO apt-get update -qq
    # policy-rc.d 101: do not start the distribution's nginx service.
    DEBIAN_FRONTEND=noninteractive RUNLEVEL=1 $SUDO apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi
NGINX=$(command -v nginx || echo /usr/sbin/nginx)

CPUS=$(nproc)
if [ "$CPUS" -ge 2 ]; then
    SERVER_CPU=0
    CLIENT_CPU=1
else
    SERVER_CPU=0
    CLIENT_CPU=0
    log "warning: one CPU only; server and wrk share it"
fi
TICKS=$(getconf CLK_TCK)

# ---------------------------------------------------------------- build

LOADAVG_START=$(cut -d' ' -f1-3 /proc/loadavg)
# Other busy processes at the start (on shared machines they are the noise).
BUSY_START=$(ps -eo pcpu=,comm= --sort=-pcpu 2>/dev/null | awk '$1 >= 10 && $2 !~ /^(aasa|nginx|wrk|perf)/ {printf "%s%s %s%%", sep, $2, $1; sep=", "}' | head -c 300 || true)
GIT_REV=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)
if [ -n "$(git -C "$ROOT" status --porcelain -- Sources Package.swift 2>/dev/null)" ]; then
    GIT_REV="$GIT_REV (Sources modified)"
fi

# Built as the release is (scripts/release.sh: the Swift runtime linked in,
# `--static-swift-stdlib`, and the program's own symbols not exported,
# `--no-export-dynamic`), so that the rows time the binary users install;
# the Benchmarks package (NIOFloor, aasa-bench) the same way, so that the
# floor is built as the server it is compared with.
STATIC=(--static-swift-stdlib -Xlinker --no-export-dynamic)
if [ -z "$AASA" ]; then
    log "building aasa (release as scripts/release.sh builds it, scratch path .build-release; the first build takes several minutes)"
    swift build -c release "${STATIC[@]}" --product aasa --scratch-path "$ROOT/.build-release" --package-path "$ROOT" >&2
    AASA="$(swift build -c release "${STATIC[@]}" --scratch-path "$ROOT/.build-release" --package-path "$ROOT" --show-bin-path)/aasa"
fi
if [ -z "$BENCH" ]; then
    log "building aasa-bench and NIOFloor (release, static Swift runtime, scratch path Benchmarks/.build-release)"
    swift build -c release "${STATIC[@]}" --scratch-path "$HERE/.build-release" --package-path "$HERE" >&2
    BENCH="$(swift build -c release "${STATIC[@]}" --scratch-path "$HERE/.build-release" --package-path "$HERE" --show-bin-path)/aasa-bench"
fi
# NIOFloor is built with aasa-bench (same package, same build).
FLOOR="$(dirname "$BENCH")/NIOFloor"
if part serve; then
    [ -x "$FLOOR" ] || die "no NIOFloor binary at $FLOOR (build it beside aasa-bench)"
fi
[ -x "$AASA" ] || die "no aasa binary at $AASA"
[ -x "$BENCH" ] || die "no aasa-bench binary at $BENCH"
# How each binary links the Swift runtime, for the report (--aasa/--bench
# may name binaries built either way).
linkage() {
    # Without ldd the linkage is not known: never reported as static.
    command -v ldd >/dev/null 2>&1 || { echo unknown; return; }
    if ldd "$1" 2>/dev/null | grep -q libswiftCore; then echo dynamic; else echo static; fi
}
LINKAGE="aasa $(linkage "$AASA"), aasa-bench $(linkage "$BENCH")"
if part serve; then LINKAGE="$LINKAGE, NIOFloor $(linkage "$FLOOR")"; fi

# ---------------------------------------------------------------- work dir, cleanup

RUN_START=$(date +%s)

WORK=$(mktemp -d /tmp/aasa-bench.XXXXXX)
chmod 755 "$WORK"
RESULTS="$WORK/results.jsonl"
: >"$RESULTS"
SERVER_PID=""
WRK_PID=""
PERF_PID=""

cleanup() {
    local status=$?
    if [ -n "$WRK_PID" ]; then kill "$WRK_PID" 2>/dev/null || true; fi
    if [ -n "$PERF_PID" ]; then kill "$PERF_PID" 2>/dev/null || true; fi
    if [ -n "$SERVER_PID" ]; then
        kill "$SERVER_PID" 2>/dev/null || true
        wait "$SERVER_PID" 2>/dev/null || true
    fi
    if [ "$KEEP" = 1 ]; then log "kept $WORK"; else rm -rf "$WORK"; fi
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---------------------------------------------------------------- links (row 1)

if part links; then
    log "links: aasa test-links and aasa match - vs the naive Python loop, 100,000 URLs"
    links_runs=$LINKS_ROUNDS
    [ "$QUICK" = 1 ] && links_runs=1
    links_out=$(python3 "$HERE/links.py" --aasa "$AASA" --bench "$BENCH" --work "$WORK/links" --runs "$links_runs") ||
        die "the link-list part failed (above: which decisions differ)"
    printf '%s\n' "$links_out" | grep -v '^LINKS_JSON ' >&2
    grep '^LINKS_JSON ' <<<"$links_out" | sed 's/^LINKS_JSON //' >>"$RESULTS"
fi

# ---------------------------------------------------------------- startup (rows 2 and 3)

if part startup; then
    [ -x "$HERE/startup.sh" ] || die "no Benchmarks/startup.sh (the startup and memory rows' own script)"
    log "startup: Benchmarks/startup.sh"
    startup_args=(--aasa "$AASA" --bench "$BENCH" --sites "$WORK/startup")
    [ "$QUICK" = 1 ] && startup_args+=(--runs 1)
    mkdir -p "$WORK/startup"
    startup_out=$("$HERE/startup.sh" "${startup_args[@]}") || die "Benchmarks/startup.sh failed"
    printf '%s\n' "$startup_out" | grep -v '^STARTUP_JSON ' >&2
    grep '^STARTUP_JSON ' <<<"$startup_out" | sed 's/^STARTUP_JSON //' >>"$RESULTS"
fi

# ---------------------------------------------------------------- serve

FILE_BYTES=0
LOAD_SECONDS=0
STEAL_TOTAL=0
if part serve; then
    # shellcheck source=Benchmarks/serve-part.sh
    . "$HERE/serve-part.sh"
fi

# ---------------------------------------------------------------- matcher

if part matcher; then
    log "matcher: AASAMatcher vs naive NSRegularExpression (server CPU idle now)"
    matcher_args=()
    [ "$QUICK" = 1 ] && matcher_args+=(--quick)
    matcher_out=$(taskset -c "$SERVER_CPU" "$BENCH" matcher "${matcher_args[@]}") || die "matcher benchmark failed"
    printf '{"kind":"matcher","data":%s}\n' "$(grep '^MATCHER_JSON ' <<<"$matcher_out" | sed 's/^MATCHER_JSON //')" >>"$RESULTS"
fi

# ---------------------------------------------------------------- report

{
    printf '{"kind":"machine","nproc":%d,"cpu":"%s","kernel":"%s","swift":"%s","nginx":"%s","wrk":"%s",' \
        "$CPUS" "$(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo)" "$(uname -r)" \
        "$(swift --version 2>/dev/null | head -n 1 | sed 's/"/\\"/g')" "$("$NGINX" -v 2>&1 | sed 's/.*: //' || true)" \
        "$(wrk --version 2>&1 | head -n 1 | awk '{print $2}' || true)"
    printf '"date":"%s","quick":%d,"runs":%d,"duration":%d,"file_bytes":%d,"hosts":%d,"scale_hosts":%d,' \
        "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$QUICK" "$RUNS" "$DURATION" "$FILE_BYTES" "$HOSTS" "$SCALE_HOSTS"
    printf '"load_seconds":%d,"steal_ticks":%d,"ticks_per_s":%d,"loadavg_start":"%s","loadavg":"%s",' \
        "$LOAD_SECONDS" "$STEAL_TOTAL" "$TICKS" "$LOADAVG_START" "$(cut -d' ' -f1-3 /proc/loadavg)"
    printf '"server_cpu":%d,"client_cpu":%d,"git":"%s","aasa_binary":"%s","linkage":"%s","busy_start":"%s","note":"%s","parts":"%s","run_seconds":%d}\n' \
        "$SERVER_CPU" "$CLIENT_CPU" "$GIT_REV" "$AASA" "$LINKAGE" "$(printf '%s' "$BUSY_START" | sed 's/"/\\"/g')" \
        "$(printf '%s' "$NOTE" | sed 's/"/\\"/g')" "${PARTS[*]}" \
        "$(($(date +%s) - RUN_START))"
} >>"$RESULTS"

report_args=("$RESULTS")
[ "$WRITE_MD" = 1 ] && report_args+=(--markdown "$ROOT/BENCHMARKS.md")
# A report that fails must not lose a 20-minute run: the raw rows are kept.
python3 "$HERE/report.py" "${report_args[@]}" || {
    cp "$RESULTS" /tmp/aasa-bench-results.jsonl
    die "report.py failed; the raw results are in /tmp/aasa-bench-results.jsonl (python3 $HERE/report.py FILE)"
}
