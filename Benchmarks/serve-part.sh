# Benchmarks/serve-part.sh — the `serve` part of Benchmarks/run.sh, sourced
# by it (not run on its own): `aasa serve` vs nginx ("files" and "map") and
# NIOFloor, throughput and instructions per request, scale, reload, reload
# under load. Uses run.sh's settings (AASA, BENCH, FLOOR, WORK, RESULTS,
# RUNS, DURATION, QUICK, …) and appends its rows to $RESULTS.

# ---------------------------------------------------------------- sites

log "generating $HOSTS and $SCALE_HOSTS domains in $WORK"
"$BENCH" sites "$WORK/sites1k" "$HOSTS"
"$BENCH" sites "$WORK/sites10k" "$SCALE_HOSTS"
printf 'd%04d.bench.example\n' "$HOSTS" >"$WORK/sites1k/last-host"
printf 'd%05d.bench.example\n' "$SCALE_HOSTS" >"$WORK/sites10k/last-host"
chmod -R a+rX "$WORK"
AASA_CHECK=$("$AASA" validate "$WORK/sites1k/aasa/d0001.bench.example/apple-app-site-association" 2>&1) ||
    die "generated file does not validate: $AASA_CHECK"
FILE_BYTES=$(stat -c %s "$WORK/sites1k/aasa/d0001.bench.example/apple-app-site-association")

# Servers, clients and process accounting.
# shellcheck source=Benchmarks/serve-lib.sh
. "$HERE/serve-lib.sh"

# ---------------------------------------------------------------- A: throughput

SERVERS=(nginx-files nginx-map nio-floor aasa)
# The turns of a run: the floor twice, back to back, then aasa. aasa is
# compared with the floor run next to it (the report's ratios are medians of
# each run's ratios); the first floor run ("repeat") measures the floor
# against itself, the spread of the measurement on this machine
# (docs/DECISIONS.md, "CPU per request").
TURNS=(nginx-files nginx-map nio-floor:repeat nio-floor aasa)
LOADS=(one rotating c512)
log "throughput: ${#LOADS[@]} loads x $RUNS runs x ${#TURNS[@]} turns, ${DURATION}s each (+${WARMUP}s warm-up)"
LOAD_START=$(date +%s)
STEAL_START=$(steal_ticks)
for load in "${LOADS[@]}"; do
    case "$load" in
        one) conns=$CONNS_MODEST rotate=0 ;;
        rotating) conns=$CONNS_MODEST rotate=$HOSTS ;;
        c512) conns=$CONNS_MANY rotate=0 ;;
    esac
    for ((run = 1; run <= RUNS; run++)); do
        for turn in "${TURNS[@]}"; do
            server=${turn%%:*}
            repeat=false
            [ "$turn" = "$server" ] || repeat=true
            start_server "$server" "$WORK/sites1k" || die "$server did not start"
            run_wrk "$conns" "$WARMUP" "$rotate" 4 >/dev/null
            before=$(cpu_ticks "$SERVER_PID")
            before_ns=$(cpu_ns "$SERVER_PID")
            steal_before=$(steal_ticks)
            wrk_json=$(run_wrk "$conns" "$DURATION" "$rotate" 4)
            after=$(cpu_ticks "$SERVER_PID")
            after_ns=$(cpu_ns "$SERVER_PID")
            steal_after=$(steal_ticks)
            rss=$(rss_kb "$SERVER_PID")
            stop_server
            cpu_ns_used=null
            [ -n "$before_ns" ] && [ -n "$after_ns" ] && cpu_ns_used=$((after_ns - before_ns))
            printf '{"kind":"load","load":"%s","conns":%d,"server":"%s","repeat":%s,"run":%d,"cpu_ticks":%d,"ticks_per_s":%d,"cpu_ns":%s,"rss_kb":%d,"steal_ticks":%d,"wrk":%s}\n' \
                "$load" "$conns" "$server" "$repeat" "$run" "$((after - before))" "$TICKS" "$cpu_ns_used" "$rss" \
                "$((steal_after - steal_before))" "$wrk_json" >>"$RESULTS"
            log "$load run $run $turn: $(python3 -c 'import json,sys; d=json.loads(sys.argv[1]); print(round(d["requests"]/d["duration_us"]*1e6), "req/s")' "$wrk_json")"
        done
    done
done
LOAD_SECONDS=$(($(date +%s) - LOAD_START))
STEAL_TOTAL=$(($(steal_ticks) - STEAL_START))

# ---------------------------------------------------------------- A2: instructions per request

# Where perf counts instructions here, one more turn per server and load
# with `perf stat` attached to the server's processes for the wrk run: a
# count that neither hypervisor steal nor neighbours move much.
PERF_OK=0
# `perf stat` exits 0 on a VM without counters too, printing "<not supported>":
# only a real count enables the pass.
counts_instructions() {
    command -v perf >/dev/null 2>&1 &&
        perf stat -x, -e instructions true 2>&1 >/dev/null | awk -F, '$3 ~ /^instructions/ && $1 ~ /^[0-9]+$/ {ok = 1} END {exit !ok}'
}
if counts_instructions; then
    PERF_OK=1
fi
if [ "$PERF_OK" = 1 ]; then
    log "instructions per request (perf stat)"
    # c512 too: at 512 connections the per-connection work (handlers,
    # clocks, buffers) weighs more per request than at 16.
    for load in "${LOADS[@]}"; do
        rotate=0 conns=$CONNS_MODEST
        [ "$load" = rotating ] && rotate=$HOSTS
        [ "$load" = c512 ] && conns=$CONNS_MANY
        for server in "${SERVERS[@]}"; do
            start_server "$server" "$WORK/sites1k" || die "$server did not start"
            run_wrk "$conns" "$WARMUP" "$rotate" 4 >/dev/null
            pid_list=$(pids_of "$SERVER_PID" | paste -sd, -)
            perf stat -x, -e instructions,cycles,instructions:u -p "$pid_list" -o "$WORK/perf-$load-$server.csv" &
            PERF_PID=$!
            sleep 0.3
            wrk_json=$(run_wrk "$conns" "$DURATION" "$rotate" 4)
            kill -INT "$PERF_PID" 2>/dev/null || true
            wait "$PERF_PID" 2>/dev/null || true
            PERF_PID=""
            stop_server
            instructions=$(awk -F, '$3 ~ /^instructions(:[a-zA-Z]*)?$/ && $3 !~ /:u$/ {print $1}' "$WORK/perf-$load-$server.csv")
            user_instructions=$(awk -F, '$3 ~ /^instructions:u$/ {print $1}' "$WORK/perf-$load-$server.csv")
            cycles=$(awk -F, '$3 ~ /^cycles/ {print $1}' "$WORK/perf-$load-$server.csv")
            printf '{"kind":"perf","load":"%s","server":"%s","instructions":"%s","user_instructions":"%s","cycles":"%s","wrk":%s}\n' \
                "$load" "$server" "${instructions:-}" "${user_instructions:-}" "${cycles:-}" "$wrk_json" >>"$RESULTS"
        done
    done
fi

# ---------------------------------------------------------------- B: scale

log "scale: startup to serving $SCALE_HOSTS hosts, RSS, reload time"
last10k=$(cat "$WORK/sites10k/last-host")
SCALE_MAX=600
[ "$QUICK" = 1 ] && SCALE_MAX=60
for server in aasa nginx-map; do
    t0=$(date +%s%N)
    if start_server "$server" "$WORK/sites10k" "$SCALE_MAX"; then
        t1=$(date +%s%N)
        seconds=$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.3f", (b-a)/1e9}')
        for i in 1 2 3; do wait_for_200 "$last10k" "$PORT" 1 || true; done
    else
        seconds=null
        log "$server did not serve $last10k within $SCALE_MAX s"
    fi
    printf '{"kind":"startup","server":"%s","hosts":%d,"seconds":%s,"cap":%d,"rss_kb":%d}\n' \
        "$server" "$SCALE_HOSTS" "$seconds" "$SCALE_MAX" "$(rss_kb "$SERVER_PID")" >>"$RESULTS"
    stop_server
done
for server in aasa nginx-map nginx-files; do
    t0=$(date +%s%N)
    start_server "$server" "$WORK/sites1k" || die "$server did not start"
    t1=$(date +%s%N)
    wait_for_200 d1000.bench.example "$PORT" 1 || true
    printf '{"kind":"startup","server":"%s","hosts":%d,"seconds":%s,"rss_kb":%d}\n' \
        "$server" "$HOSTS" "$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.3f", (b-a)/1e9}')" \
        "$(rss_kb "$SERVER_PID")" >>"$RESULTS"
    stop_server
done

# Reload time (SIGHUP: re-read and validate all 1,000 files, swap): the
# server's own `reload.duration` from its log, and the wall time from the
# signal until that log line appears.
count_reloads() { grep -c 'reloaded' "$1" 2>/dev/null || true; }
# wait_reloads LOG N MAX_TRIES(5 ms each)
wait_reloads() {
    local file=$1 want=$2 tries=$3 i
    for ((i = 0; i < tries; i++)); do
        [ "$(count_reloads "$file")" -ge "$want" ] && return 0
        sleep 0.005
    done
    return 1
}
start_server aasa "$WORK/sites1k" || die "aasa did not start"
RELOAD_LOG="$WORK/aasa-$PORT.log"
n=$(count_reloads "$RELOAD_LOG")
for ((i = 1; i <= RELOAD_SAMPLES; i++)); do
    t0=$(date +%s%N)
    kill -HUP "$SERVER_PID"
    wait_reloads "$RELOAD_LOG" $((n + i)) 6000 || die "no reload logged after SIGHUP"
    t1=$(date +%s%N)
    # The logger quotes a value with a space in it: reload.duration="0.03 seconds".
    internal=$(grep 'reloaded' "$RELOAD_LOG" | tail -n 1 |
        sed -n -e 's/.*reload\.duration="\([^"]*\)".*/\1/p' -e 't' -e 's/.*reload\.duration=\([^ "]*\).*/\1/p')
    printf '{"kind":"reload","files":%d,"wall_seconds":%s,"internal":"%s"}\n' "$HOSTS" \
        "$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.4f", (b-a)/1e9}')" "$internal" >>"$RESULTS"
done
stop_server

# ---------------------------------------------------------------- C: reload under load

log "reload under load: $RELOADS reloads during rotating-host load"
# Baseline: the same load, no reloads, about as long as the reload phase.
start_server aasa "$WORK/sites1k" || die "aasa did not start"
run_wrk "$CONNS_MODEST" "$WARMUP" "$HOSTS" 4 >/dev/null
base_json=$(run_wrk "$CONNS_MODEST" "$((DURATION * 2))" "$HOSTS" 4)
printf '{"kind":"reload_load","phase":"baseline","wrk":%s}\n' "$base_json" >>"$RESULTS"
stop_server

start_server aasa "$WORK/sites1k" || die "aasa did not start"
RELOAD_LOG="$WORK/aasa-$PORT.log"
run_wrk "$CONNS_MODEST" "$WARMUP" "$HOSTS" 4 >/dev/null
WRK_OUT="$WORK/wrk-reload.out"
BENCH_ROTATE=$HOSTS BENCH_WIDTH=4 taskset -c "$CLIENT_CPU" wrk -t1 -c "$CONNS_MODEST" -d 600s --timeout 5s \
    -s "$HERE/wrk/aasa.lua" "http://127.0.0.1:$PORT$URL_PATH" >"$WRK_OUT" 2>&1 &
WRK_PID=$!
sleep 1
n=$(count_reloads "$RELOAD_LOG")
reload_start=$(date +%s%N)
edits=0
for ((i = 1; i <= RELOADS; i++)); do
    if ((i % 2 == 0)); then
        # Edit a file the way a deploy does (write aside, rename over), then SIGHUP.
        host=$(printf 'd%04d.bench.example' $(((i * 37) % HOSTS + 1)))
        target="$WORK/sites1k/aasa/$host/apple-app-site-association"
        sed "s/any anchor[^\"]*\./any anchor, edit $i./" "$target" >"$target.tmp"
        mv "$target.tmp" "$target"
        edits=$((edits + 1))
    fi
    kill -HUP "$SERVER_PID"
    wait_reloads "$RELOAD_LOG" $((n + i)) 6000 || die "reload $i not logged"
done
reload_end=$(date +%s%N)
kill -INT "$WRK_PID"
for ((i = 0; i < 1000; i++)); do kill -0 "$WRK_PID" 2>/dev/null || break; sleep 0.01; done
wait "$WRK_PID" 2>/dev/null || true
WRK_PID=""
during_json=$(grep '^WRK_JSON ' "$WRK_OUT" | sed 's/^WRK_JSON //') || die "wrk printed no summary: $(cat "$WRK_OUT")"
rejected=$(grep -c 'file rejected' "$RELOAD_LOG" || true)
last_gen=$(grep 'reloaded' "$RELOAD_LOG" | tail -n 1 | sed -n 's/.*reload\.generation=\([0-9]*\).*/\1/p')
printf '{"kind":"reload_load","phase":"reloads","reloads":%d,"edits":%d,"rejected":%d,"generation":"%s","reload_seconds":%s,"wrk":%s}\n' \
    "$RELOADS" "$edits" "$rejected" "$last_gen" \
    "$(awk -v a="$reload_start" -v b="$reload_end" 'BEGIN{printf "%.3f", (b-a)/1e9}')" "$during_json" >>"$RESULTS"
stop_server

