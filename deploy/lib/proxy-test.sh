# shellcheck shell=bash
# Shared by deploy/nginx/test.sh and deploy/caddy/test.sh: start `aasa serve`
# on loopback, wait for servers, and check answers through a proxy.
# Source it after setting `test_name`; it sets up a temp dir ($work) and an
# EXIT trap that stops every process registered with `track_pid`.

: "${test_name:=proxy-test}"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

fail() { echo "$test_name: FAIL: $*" >&2; exit 1; }
note() { echo "$test_name: $*"; }

require_tools() {
    local tool
    for tool in "$@"; do
        command -v "$tool" > /dev/null || fail "$tool is not installed"
    done
}

work="$(mktemp -d "${TMPDIR:-/tmp}/aasa-${test_name}.XXXXXX")"
chmod 0755 "$work" # proxy workers running as nobody must traverse it
tracked_pids=()
show_logs=(origin.log)

track_pid() { tracked_pids+=("$1"); }

stop_pid() { # pid [signal]
    local pid="$1" sig="${2:-TERM}"
    if [[ -n "$pid" ]] && kill -0 "$pid" 2> /dev/null; then
        kill "-$sig" "$pid" 2> /dev/null || true
        wait "$pid" 2> /dev/null || true
    fi
}

proxy_test_cleanup() {
    local status=$? pid log
    for pid in "${tracked_pids[@]}"; do
        stop_pid "$pid"
    done
    if [[ $status -ne 0 ]]; then
        for log in "${show_logs[@]}"; do
            if [[ -s "$work/$log" ]]; then
                echo "----- $log (last 40 lines)" >&2
                tail -n 40 "$work/$log" >&2
            fi
        done
    fi
    rm -rf "$work"
    exit "$status"
}
trap proxy_test_cleanup EXIT
trap 'exit 130' INT TERM

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# wait_http URL WHAT PID [curl args...]: poll until something answers HTTP
# on URL (any status), at most ~20 s; fail early if PID exits.
wait_http() {
    local url="$1" what="$2" pid="$3" i
    shift 3
    for i in $(seq 1 100); do
        kill -0 "$pid" 2> /dev/null || fail "$what exited before answering"
        if curl -sk -o /dev/null --max-time 1 "$@" "$url" 2> /dev/null; then
            return 0
        fi
        sleep 0.2
    done
    fail "$what did not answer on $url within 20 s (tried $i times)"
}

# start_origin BINARY PORT: `aasa serve` on 127.0.0.1:PORT serving the repo's aasa/.
start_origin() {
    local bin="$1" port="$2"
    [[ -x "$bin" ]] || fail "no aasa binary at $bin (build it: swift build --product aasa)"
    (cd "$repo" && exec "$bin" serve --dir aasa --bind 127.0.0.1 --port "$port" --admin-port 0) \
        > "$work/origin.log" 2>&1 &
    origin_pid=$!
    track_pid "$origin_pid"
    wait_http "http://127.0.0.1:${port}/.well-known/apple-app-site-association" "aasa serve" "$origin_pid" \
        -H "Host: pastaio.example"
    note "aasa serve is up on 127.0.0.1:${port}"
}

stop_origin() {
    stop_pid "$origin_pid"
}

failures=0
# check DESCRIPTION COMMAND...: one ok/FAIL line.
check() {
    local what="$1"
    shift
    if "$@"; then
        echo "ok   - $what"
    else
        echo "FAIL - $what"
        failures=$((failures + 1))
    fi
}

finish() {
    [[ $failures -eq 0 ]] || fail "$failures check(s) failed"
    note "all checks passed"
}

# fetch SCHEME HOST PORT PATH [curl args...]: response in $work/body and
# $work/headers; prints the status (000 when there was no answer).
fetch() {
    local scheme="$1" host="$2" port="$3" path="$4"
    shift 4
    curl -sk --max-time 5 --resolve "${host}:${port}:127.0.0.1" \
        -D "$work/headers" -o "$work/body" -w '%{http_code}' "$@" \
        "${scheme}://${host}:${port}${path}" || echo "000"
}
content_type() {
    tr -d '\r' < "$work/headers" | awk -F': *' 'tolower($1) == "content-type" { print tolower($2) }' | tail -n 1
}
is_json() { python3 -c 'import json, sys; json.load(open(sys.argv[1], "rb"))' "$work/body" 2> /dev/null; }

# expect_file SCHEME HOST PORT PATH FILE: 200, application/json, FILE's bytes.
expect_file() {
    local status ctype
    status="$(fetch "$1" "$2" "$3" "$4")"
    ctype="$(content_type)"
    [[ "$status" == "200" ]] || { echo "    $1://$2$4: status $status, want 200" >&2; return 1; }
    [[ "$ctype" == application/json* ]] || { echo "    $1://$2$4: content-type '$ctype', want application/json" >&2; return 1; }
    cmp -s "$work/body" "$repo/$5" || { echo "    $1://$2$4: body differs from $5" >&2; return 1; }
}

# expect_status SCHEME HOST PORT PATH STATUS [curl args...]
expect_status() {
    local status want="$5"
    status="$(fetch "$1" "$2" "$3" "$4" "${@:6}")"
    [[ "$status" == "$want" ]] || { echo "    $1://$2$4: status $status, want $want" >&2; return 1; }
}

# not_redirected SCHEME HOST PORT PATH: a 200 JSON answer, never a 3xx.
not_redirected() {
    local status
    status="$(fetch "$@")"
    [[ "$status" != 3* ]] || { echo "    $1://$2$4: redirected ($status)" >&2; return 1; }
    [[ "$status" == "200" ]] || { echo "    $1://$2$4: status $status, want 200" >&2; return 1; }
    is_json || { echo "    $1://$2$4: body is not JSON" >&2; return 1; }
}

# not_html SCHEME HOST PORT PATH STATUS: the given status, not an HTML error page.
not_html() {
    local status ctype
    status="$(fetch "$1" "$2" "$3" "$4")"
    ctype="$(content_type)"
    [[ "$status" == "$5" ]] || { echo "    $1://$2$4: status $status, want $5" >&2; return 1; }
    [[ "$ctype" != text/html* ]] || { echo "    $1://$2$4: an HTML error page" >&2; return 1; }
}

# The checks every proxy recipe must pass: SCHEME PORT for TLS, PORT for plain HTTP.
common_checks() {
    local https_port="$1" http_port="$2" aasa_path=/.well-known/apple-app-site-association
    check "https pastaio.example $aasa_path: 200 application/json, the file's body" \
        expect_file https pastaio.example "$https_port" "$aasa_path" aasa/pastaio.example/apple-app-site-association
    check "https pastaio.example /apple-app-site-association (legacy path): 200" \
        expect_file https pastaio.example "$https_port" /apple-app-site-association aasa/pastaio.example/apple-app-site-association
    check "https pastaio.example /.well-known/assetlinks.json: 200" \
        expect_file https pastaio.example "$https_port" /.well-known/assetlinks.json aasa/pastaio.example/assetlinks.json
    check "Host passed through: www.pastaio.example gets its own file" \
        expect_file https www.pastaio.example "$https_port" "$aasa_path" aasa/www.pastaio.example/apple-app-site-association
    check "Host passed through: pastaio-de.example gets its own file" \
        expect_file https pastaio-de.example "$https_port" "$aasa_path" aasa/pastaio-de.example/apple-app-site-association
    check "staging.pastaio.example (symlink alias) gets pastaio.example's file" \
        expect_file https staging.pastaio.example "$https_port" "$aasa_path" aasa/pastaio.example/apple-app-site-association
    check "HEAD $aasa_path: 200" expect_status https pastaio.example "$https_port" "$aasa_path" 200 --head
    check "plain http $aasa_path: not a 3xx, 200 JSON" not_redirected http pastaio.example "$http_port" "$aasa_path"
    check "plain http /.well-known/assetlinks.json: not a 3xx" \
        not_redirected http pastaio.example "$http_port" /.well-known/assetlinks.json
}
