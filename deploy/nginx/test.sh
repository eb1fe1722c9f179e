#!/usr/bin/env bash
# Runs deploy/nginx/aasa.conf for real: nginx on loopback terminating TLS in
# front of `aasa serve`, and requests through it.
#
#   deploy/nginx/test.sh [path/to/aasa]             (default: .build/debug/aasa)
#   AASA_NGINX_SYNTAX_ONLY=1 deploy/nginx/test.sh   (render + `nginx -t` only; no aasa needed)
#
# Needs nginx, openssl, curl and python3 (to pick free ports). Exits non-zero
# on any failure; stops its processes and removes its temp dir in every case.
set -euo pipefail

test_name=nginx-test
# shellcheck source=SCRIPTDIR/../lib/proxy-test.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/proxy-test.sh"

aasa_bin="${1:-.build/debug/aasa}"
[[ "$aasa_bin" == /* ]] || aasa_bin="$PWD/$aasa_bin"
syntax_only="${AASA_NGINX_SYNTAX_ONLY:-0}"
show_logs+=(error.log)

require_tools nginx openssl curl python3

origin_port="$(free_port)"
http_port="$(free_port)"
https_port="$(free_port)"

# --- (a) a self-signed certificate for the demo names ------------------------
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -sha256 \
    -subj "/CN=pastaio.example" \
    -addext "subjectAltName=DNS:pastaio.example,DNS:www.pastaio.example,DNS:staging.pastaio.example,DNS:accounts.pastaio.example,DNS:pastaio-de.example" \
    -keyout "$work/privkey.pem" -out "$work/fullchain.pem" 2> /dev/null \
    || fail "openssl could not make a certificate"

# --- the shipped config, rendered for loopback ports -------------------------
# Every line rewritten must be found exactly once: a drifted aasa.conf fails
# here instead of silently testing something else.
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
    || fail "nginx -t rejected deploy/nginx/aasa.conf"
note "nginx -t: deploy/nginx/aasa.conf OK"
[[ "$syntax_only" == "1" ]] && exit 0

# --- (b) the origin, (c) nginx in the foreground ------------------------------
start_origin "$aasa_bin" "$origin_port"

nginx -p "$work" -e "$work/error.log" -c "$work/nginx.conf" -g 'daemon off;' &
nginx_pid=$!
track_pid "$nginx_pid"
wait_http "https://pastaio.example:${https_port}/" "nginx" "$nginx_pid" \
    --resolve "pastaio.example:${https_port}:127.0.0.1"
note "nginx is up on 127.0.0.1:${http_port} (http) and :${https_port} (https)"

# --- (d) requests through nginx -----------------------------------------------
common_checks "$https_port" "$http_port"
check "plain http /it/menu (rest of the site): 301 to https" \
    expect_status http pastaio.example "$http_port" /it/menu 301
check "unknown host: the origin's 404, not an nginx HTML page" \
    not_html https unknown.example "$https_port" /.well-known/apple-app-site-association 404

# Last: the origin goes away; nginx must answer a JSON 503, not its HTML 502.
stop_origin
origin_down() {
    local status ctype
    status="$(fetch https pastaio.example "$https_port" /.well-known/apple-app-site-association)"
    ctype="$(content_type)"
    [[ "$status" == "503" && "$ctype" == application/json* ]] || {
        echo "    origin down: status $status, content-type '$ctype', want 503 application/json" >&2
        return 1
    }
}
check "origin down: 503 application/json from nginx, not an HTML 502" origin_down

finish
