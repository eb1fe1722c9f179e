# shellcheck shell=bash
# Benchmarks/serve-lib.sh — the servers, clients and process accounting the
# `serve` part (serve-part.sh), serve-aa.sh and serve-ab.sh drive; sourced by them, never run on its own.
# Uses run.sh's settings (AASA, FLOOR, NGINX, WORK, SERVER_CPU, CLIENT_CPU, …).

# nginx configuration: $1 = files|map, $2 = port, $3 = sites dir. One worker,
# no access log, keep-alive on; the same extra headers aasa sends.
nginx_conf() {
    local kind=$1 port=$2 sites=$3 prefix="$WORK/nginx-$1-$2"
    mkdir -p "$prefix/logs" "$prefix/tmp"
    local user_line=""
    [ "$(id -u)" = 0 ] && user_line="user root;"
    {
        cat <<EOF
$user_line
worker_processes 1;
daemon off;
master_process on;
pid $prefix/nginx.pid;
error_log $prefix/logs/error.log warn;
events { worker_connections 4096; }
http {
    access_log off;
    keepalive_timeout 65;
    keepalive_requests 1000000;
    server_tokens off;
    client_body_temp_path $prefix/tmp/body;
    proxy_temp_path $prefix/tmp/proxy;
    fastcgi_temp_path $prefix/tmp/fastcgi;
    uwsgi_temp_path $prefix/tmp/uwsgi;
    scgi_temp_path $prefix/tmp/scgi;
    map_hash_max_size 65536;
    map_hash_bucket_size 128;
    server_names_hash_bucket_size 128;
EOF
        if [ "$kind" = files ]; then
            cat <<EOF
    server {
        listen 127.0.0.1:$port;
        root $sites/www/\$host;
        location = /.well-known/apple-app-site-association {
            default_type application/json;
            add_header Cache-Control "max-age=300";
            add_header X-Content-Type-Options nosniff;
            try_files \$uri =404;
        }
    }
EOF
        else
            cat "$sites/nginx-map.conf"
            cat <<EOF
    server {
        listen 127.0.0.1:$port;
        location = /.well-known/apple-app-site-association {
            default_type application/json;
            add_header Cache-Control "max-age=300";
            add_header X-Content-Type-Options nosniff;
            return 200 \$aasa_body;
        }
    }
EOF
        fi
        echo "}"
    } >"$prefix/nginx.conf"
    echo "$prefix"
}

# ---------------------------------------------------------------- process accounting

# The pid and its children (nginx master + worker; aasa is one process).
pids_of() {
    local pid=$1 p stat fields
    echo "$pid"
    for p in /proc/[0-9]*; do
        [ -r "$p/stat" ] || continue
        stat=$(cat "$p/stat" 2>/dev/null) || continue
        read -r -a fields <<<"${stat##*) }"
        # After "comm) ": state, ppid, …
        [ "${fields[1]}" = "$pid" ] && echo "${p#/proc/}"
    done
    return 0
}

# utime + stime (ticks) of a process tree.
cpu_ticks() {
    local total=0 p stat fields
    for p in $(pids_of "$1"); do
        stat=$(cat "/proc/$p/stat" 2>/dev/null) || continue
        # After "comm) ", utime and stime (fields 14 and 15 of the line) are at 11 and 12.
        read -r -a fields <<<"${stat##*) }"
        total=$((total + fields[11] + fields[12]))
    done
    echo "$total"
}

# CPU time (ns) of a process tree from the scheduler's own account: the
# first field of each thread's /proc/PID/task/TID/schedstat. The estimator
# the report uses (docs/DECISIONS.md, "CPU per request"); prints nothing
# where the kernel keeps no schedstat, and the report then uses cpu_ticks.
cpu_ns() {
    local total=0 p t ns
    [ -r "/proc/$1/schedstat" ] || return 0
    for p in $(pids_of "$1"); do
        for t in /proc/"$p"/task/*/schedstat; do
            read -r ns _ <"$t" 2>/dev/null || continue
            total=$((total + ns))
        done
    done
    echo "$total"
}

rss_kb() {
    local total=0 p kb
    for p in $(pids_of "$1"); do
        kb=$(awk '/^VmRSS:/ {print $2}' "/proc/$p/status" 2>/dev/null || true)
        total=$((total + ${kb:-0}))
    done
    echo "$total"
}

steal_ticks() { awk '/^cpu / {print $9}' /proc/stat; }

# ---------------------------------------------------------------- servers

# Below Linux's ephemeral range (32768-60999): a listening port there can
# collide with the source port of one of wrk's or curl's own connections,
# and the server then fails to bind.
PORT_BASE=$((20000 + RANDOM % 10000))
PORT=$PORT_BASE
URL_PATH=/.well-known/apple-app-site-association

# wait_for_200 HOST PORT MAX_SECONDS: 0 once the host answers 200 (polled every 10 ms).
wait_for_200() {
    local host=$1 port=$2 deadline code
    deadline=$(($(date +%s%N) + $3 * 1000000000))
    while :; do
        code=$(curl -s -o /dev/null -w '%{http_code}' -H "Host: $host" "http://127.0.0.1:$port$URL_PATH" 2>/dev/null || true)
        [ "$code" = 200 ] && return 0
        [ "$(date +%s%N)" -lt "$deadline" ] || return 1
        sleep 0.01
    done
}

# start_server KIND SITES [MAX_SECONDS]; sets SERVER_PID and PORT. Returns 1
# (server left running) when the last host is not served within MAX_SECONDS.
start_server() {
    local kind=$1 sites=$2 max=${3:-60}
    PORT=$((PORT + 1))
    case "$kind" in
        aasa)
            taskset -c "$SERVER_CPU" "$AASA" serve --dir "$sites/aasa" --port "$PORT" --bind 127.0.0.1 \
                --admin-port 0 --no-access-log --poll-interval 0 >"$WORK/aasa-$PORT.log" 2>&1 &
            SERVER_PID=$!
            ;;
        nio-floor)
            # Answers every request with d0001's file, whatever the Host.
            taskset -c "$SERVER_CPU" "$FLOOR" "$sites/aasa/d0001.bench.example/apple-app-site-association" "$PORT" \
                >"$WORK/floor-$PORT.log" 2>&1 &
            SERVER_PID=$!
            ;;
        nginx-files|nginx-map)
            local prefix
            prefix=$(nginx_conf "${kind#nginx-}" "$PORT" "$sites")
            taskset -c "$SERVER_CPU" "$NGINX" -p "$prefix" -c "$prefix/nginx.conf" >"$prefix/logs/stderr.log" 2>&1 &
            SERVER_PID=$!
            ;;
        *) die "unknown server $kind" ;;
    esac
    local last
    last=$(cat "$sites/last-host")
    wait_for_200 "$last" "$PORT" "$max" && return 0
    # Say why: the server's own last words (a failed bind, a rejected file).
    tail -n 5 "$WORK/$kind-$PORT.log" "$WORK/aasa-$PORT.log" 2>/dev/null | sed 's/^/  server: /' >&2
    return 1
}

stop_server() {
    [ -n "$SERVER_PID" ] || return 0
    kill -TERM "$SERVER_PID" 2>/dev/null || true
    local i
    for ((i = 0; i < 500; i++)); do
        kill -0 "$SERVER_PID" 2>/dev/null || break
        sleep 0.01
    done
    kill -KILL "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=""
}

# run_wrk CONNS SECONDS ROTATE(0|N) WIDTH -> prints the WRK_JSON object
run_wrk() {
    local conns=$1 seconds=$2 rotate=$3 width=$4 out
    out=$(BENCH_ROTATE=$rotate BENCH_WIDTH=$width BENCH_HOST=d0001.bench.example \
        taskset -c "$CLIENT_CPU" wrk -t1 -c "$conns" -d "${seconds}s" --timeout 5s \
        -s "$HERE/wrk/aasa.lua" "http://127.0.0.1:$PORT$URL_PATH" 2>&1) || die "wrk failed: $out"
    grep '^WRK_JSON ' <<<"$out" | sed 's/^WRK_JSON //' || die "no WRK_JSON in: $out"
}

# ---------------------------------------------------------------- one measured run

# load_shape LOAD: sets CONNS and ROTATE for one of run.sh's loads (one,
# rotating, c512) or rotN (16 connections, Host rotating over the first N of
# $HOSTS); returns 1 for anything else.
# shellcheck disable=SC2034 # CONNS and ROTATE are the caller's
load_shape() {
    case "$1" in
        one) CONNS=16 ROTATE=0 ;;
        rotating) CONNS=16 ROTATE=$HOSTS ;;
        c512) CONNS=512 ROTATE=0 ;;
        rot*)
            CONNS=16 ROTATE=${1#rot}
            if ! [[ $ROTATE =~ ^[0-9]+$ ]] || [ "$ROTATE" -lt 1 ] || [ "$ROTATE" -gt "$HOSTS" ]; then
                return 1
            fi
            ;;
        *) return 1 ;;
    esac
}

# measured_run KIND SITES CONNS ROTATE WARMUP SECONDS: starts the server,
# warms it up, measures one wrk run and stops it. Sets RUN_WRK (wrk's JSON),
# RUN_NS (the scheduler's nanoseconds), RUN_TICKS (utime + stime), RUN_USER
# and RUN_SYSTEM (ticks) over the measured run.
# shellcheck disable=SC2034 # the RUN_* values are the caller's
measured_run() {
    local kind=$1 sites=$2 conns=$3 rotate=$4 warmup=$5 seconds=$6 ns ticks user system user2 system2
    start_server "$kind" "$sites" || die "$kind did not start"
    run_wrk "$conns" "$warmup" "$rotate" 4 >/dev/null
    ns=$(cpu_ns "$SERVER_PID") ticks=$(cpu_ticks "$SERVER_PID")
    read -r user system < <(awk '{print $14, $15}' "/proc/$SERVER_PID/stat")
    RUN_WRK=$(run_wrk "$conns" "$seconds" "$rotate" 4)
    RUN_NS=$(($(cpu_ns "$SERVER_PID") - ns)) RUN_TICKS=$(($(cpu_ticks "$SERVER_PID") - ticks))
    read -r user2 system2 < <(awk '{print $14, $15}' "/proc/$SERVER_PID/stat")
    RUN_USER=$((user2 - user)) RUN_SYSTEM=$((system2 - system))
    stop_server
}
