#!/usr/bin/env bash
# Runs deploy/nginx/aasa.conf for real: nginx on loopback terminating TLS in
# front of `aasa serve`, and requests through it.
#
#   deploy/nginx/test.sh [path/to/aasa]         (default: .build/debug/aasa)
#   AASA_NGINX_SYNTAX_ONLY=1 deploy/nginx/test.sh   (render + `nginx -t` only, no aasa needed)
#
# Needs nginx, openssl, curl and python3 (to pick free ports). Exits non-zero
# on any failure; cleans up its processes and temp directory in every case.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
aasa_bin="${1:-.build/debug/aasa}"
syntax_only="${AASA_NGINX_SYNTAX_ONLY:-0}"

fail() { echo "nginx-test: FAIL: $*" >&2; exit 1; }
note() { echo "nginx-test: $*"; }

for tool in nginx openssl curl python3; do
    command -v "$tool" > /dev/null || fail "$tool is not installed"
done

work="$(mktemp -d "${TMPDIR:-/tmp}/aasa-nginx-test.XXXXXX")"
chmod 0755 "$work"   # nginx workers (nobody) must traverse it
origin_pid=""
nginx_pid=""

cleanup() {
    local status=$?
    if [[ -n "$nginx_pid" ]] && kill -0 "$nginx_pid" 2> /dev/null; then
        kill -QUIT "$nginx_pid" 2> /dev/null || true
        wait "$nginx_pid" 2> /dev/null || true
    fi
    if [[ -n "$origin_pid" ]] && kill -0 "$origin_pid" 2> /dev/null; then
        kill -TERM "$origin_pid" 2> /dev/null || true
        wait "$origin_pid" 2> /dev/null || true
    fi
    if [[ $status -ne 0 ]]; then
        for log in origin.log error.log; do
            if [[ -s "$work/$log" ]]; then
                echo "----- $log (last 40 lines)" >&2
                tail -n 40 "$work/$log" >&2
            fi
        done
    fi
    rm -rf "$work"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# Poll until something answers HTTP on the URL (any status), at most ~20 s.
wait_http() {
    local url="$1" what="$2" pid="$3" i
    shift 3
    for i in $(seq 1 100); do
        if ! kill -0 "$pid" 2> /dev/null; then
            fail "$what exited before answering"
        fi
        if curl -sk -o /dev/null --max-time 1 "$@" "$url" 2> /dev/null; then
            return 0
        fi
        sleep 0.2
    done
    fail "$what did not answer on $url within 20 s (tried $i times)"
}

origin_port="$(free_port)"
http_port="$(free_port)"
https_port="$(free_port)"

# --- (a) a self-signed certificate for the demo names ------------------------
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -sha256 \
    -subj "/CN=pastaio.example" \
    -addext "subjectAltName=DNS:pastaio.example,DNS:www.pastaio.example,DNS:staging.pastaio.example,DNS:accounts.pastaio.example,DNS:pastaio-de.example" \
    -keyout "$work/privkey.pem" -out "$work/fullchain.pem" 2> /dev/null \
    || fail "openssl could not make a certificate"

# --- render the shipped config for loopback ports ----------------------------
# Every placeholder line of the shipped file must be found: a drifted
# aasa.conf fails here instead of silently testing something else.
conf="$repo/deploy/nginx/aasa.conf"
expect_line() { # count pattern
    local n
    n="$(grep -cxE "$2" "$conf" || true)"
    [[ "$n" == "$1" ]] || fail "aasa.conf: expected $1 line(s) matching '$2', found $n"
}
expect_line 1 '[[:space:]]*listen 80;'
expect_line 1 '[[:space:]]*listen 443 ssl;'
expect_line 1 '[[:space:]]*server 127\.0\.0\.1:8080;'
expect_line 1 '[[:space:]]*ssl_certificate[[:space:]]+/etc/ssl/pastaio\.example/fullchain\.pem;'
expect_line 1 '[[:space:]]*ssl_certificate_key[[:space:]]+/etc/ssl/pastaio\.example/privkey\.pem;'

sed -E \
    -e "s|^([[:space:]]*)listen 80;|\1listen 127.0.0.1:${http_port};|" \
    -e "s|^([[:space:]]*)listen 443 ssl;|\1listen 127.0.0.1:${https_port} ssl;|" \
    -e '/^[[:space:]]*listen \[::\]:(80|443)( ssl)?;/d' \
    -e "s|^([[:space:]]*)server 127\.0\.0\.1:8080;|\1server 127.0.0.1:${origin_port};|" \
    -e "s|/etc/ssl/pastaio\.example/fullchain\.pem|$work/fullchain.pem|" \
    -e "s|/etc/ssl/pastaio\.example/privkey\.pem|$work/privkey.pem|" \
    "$conf" > "$work/aasa.conf"

mkdir -p "$work/temp"
cat > "$work/nginx.conf" << NGINX
worker_processes 1;
pid $work/nginx.pid;
error_log $work/error.log info;
events { worker_connections 64; }
http {
    access_log $work/access.log;
    client_body_temp_path $work/temp/body;
    proxy_temp_path $work/temp/proxy;
    fastcgi_temp_path $work/temp/fastcgi;
    uwsgi_temp_path $work/temp/uwsgi;
    scgi_temp_path $work/temp/scgi;
    include $work/aasa.conf;
}
NGINX

nginx -t -q -p "$work" -e "$work/error.log" -c "$work/nginx.conf" \
    || { cat "$work/error.log" >&2; fail "nginx -t rejected deploy/nginx/aasa.conf"; }
note "nginx -t: deploy/nginx/aasa.conf OK"
if [[ "$syntax_only" == "1" ]]; then
    exit 0
fi

# --- (b) the origin -----------------------------------------------------------
cd "$repo"
[[ -x "$aasa_bin" ]] || fail "no aasa binary at $aasa_bin (build it: swift build --product aasa)"
"$aasa_bin" serve --dir aasa --bind 127.0.0.1 --port "$origin_port" --admin-port 0 \
    > "$work/origin.log" 2>&1 &
origin_pid=$!
wait_http "http://127.0.0.1:${origin_port}/.well-known/apple-app-site-association" "aasa serve" "$origin_pid" \
    -H "Host: pastaio.example"
note "aasa serve is up on 127.0.0.1:${origin_port}"

# --- (c) nginx ------------------------------------------------------------------
nginx -p "$work" -e "$work/error.log" -c "$work/nginx.conf" -g 'daemon off;' &
nginx_pid=$!
wait_http "https://pastaio.example:${https_port}/" "nginx" "$nginx_pid" \
    --resolve "pastaio.example:${https_port}:127.0.0.1"
note "nginx is up on 127.0.0.1:${http_port} (http) and :${https_port} (https)"

# --- (d) requests through nginx -----------------------------------------------
failures=0
check() { # description, then a command that must succeed
    local what="$1"; shift
    if "$@"; then
        echo "ok   - $what"
    else
        echo "FAIL - $what"
        failures=$((failures + 1))
    fi
}

# fetch SCHEME HOST PORT PATH [curl args...] -> $work/body, $work/headers; prints the status
fetch() {
    local scheme="$1" host="$2" port="$3" path="$4"; shift 4
    curl -sk --max-time 5 --resolve "${host}:${port}:127.0.0.1" \
        -D "$work/headers" -o "$work/body" -w '%{http_code}' "$@" \
        "${scheme}://${host}:${port}${path}" || echo "000"
}
content_type() { tr -d '\r' < "$work/headers" | awk -F': *' 'tolower($1) == "content-type" { print tolower($2) }' | tail -n 1; }
is_json() { python3 -c 'import json, sys; json.load(open(sys.argv[1], "rb"))' "$work/body" 2> /dev/null; }

expect_file() { # scheme host port path file
    local status ctype
    status="$(fetch "$1" "$2" "$3" "$4")"
    ctype="$(content_type)"
    [[ "$status" == "200" ]] || { echo "    $1://$2$4: status $status, want 200" >&2; return 1; }
    [[ "$ctype" == application/json* ]] || { echo "    $1://$2$4: content-type '$ctype', want application/json" >&2; return 1; }
    cmp -s "$work/body" "$5" || { echo "    $1://$2$4: body differs from $5" >&2; return 1; }
}

aasa_path=/.well-known/apple-app-site-association
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

head_ok() {
    local status
    status="$(fetch https pastaio.example "$https_port" "$aasa_path" --head)"
    [[ "$status" == "200" && "$(content_type)" == application/json* ]] || {
        echo "    HEAD: status $status, content-type '$(content_type)'" >&2; return 1; }
}
check "HEAD $aasa_path: 200 application/json" head_ok

plain_not_redirected() {
    local status
    status="$(fetch http pastaio.example "$http_port" "$aasa_path")"
    [[ "$status" != 3* ]] || { echo "    http $aasa_path: redirected ($status)" >&2; return 1; }
    [[ "$status" == "200" ]] || { echo "    http $aasa_path: status $status, want 200" >&2; return 1; }
    is_json || { echo "    http $aasa_path: body is not JSON" >&2; return 1; }
}
check "http (port 80 role) $aasa_path: not a 3xx, 200 JSON" plain_not_redirected

rest_redirected() {
    local status
    status="$(fetch http pastaio.example "$http_port" /it/menu)"
    [[ "$status" == "301" ]] || { echo "    http /it/menu: status $status, want 301" >&2; return 1; }
}
check "http /it/menu (rest of the site): 301 to https" rest_redirected

unknown_host_json() {
    local status ctype
    status="$(fetch https unknown.example "$https_port" "$aasa_path")"
    ctype="$(content_type)"
    [[ "$status" == "404" ]] || { echo "    unknown host: status $status, want 404" >&2; return 1; }
    [[ "$ctype" != text/html* ]] || { echo "    unknown host: nginx served an HTML error page" >&2; return 1; }
}
check "unknown host: the origin's 404, not an nginx HTML page" unknown_host_json

# Last: the origin goes away; nginx must answer a JSON 503, not its HTML 502.
kill -TERM "$origin_pid" 2> /dev/null || true
wait "$origin_pid" 2> /dev/null || true
origin_pid=""
origin_down() {
    local status ctype
    status="$(fetch https pastaio.example "$https_port" "$aasa_path")"
    ctype="$(content_type)"
    [[ "$status" == "503" && "$ctype" == application/json* ]] || {
        echo "    origin down: status $status content-type '$ctype', want 503 application/json" >&2; return 1; }
}
check "origin down: 503 application/json from nginx, not an HTML 502" origin_down

if [[ $failures -ne 0 ]]; then
    fail "$failures check(s) failed"
fi
note "all checks passed"
