#!/usr/bin/env bash
# Runs deploy/caddy/Caddyfile for real: Caddy on loopback in front of
# `aasa serve`, with certificates from Caddy's own local CA (no ACME, no
# network), and requests through it.
#
#   deploy/caddy/test.sh [path/to/aasa]     (default: .build/debug/aasa)
#
# Needs caddy, curl and python3. Exits non-zero on any failure; stops its
# processes and removes its temp dir in every case.
set -euo pipefail

test_name=caddy-test
# shellcheck source=SCRIPTDIR/../lib/proxy-test.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/proxy-test.sh"

aasa_bin="${1:-.build/debug/aasa}"
[[ "$aasa_bin" == /* ]] || aasa_bin="$PWD/$aasa_bin"
show_logs+=(caddy.log)

require_tools caddy curl python3

origin_port="$(free_port)"
http_port="$(free_port)"
https_port="$(free_port)"

# --- the shipped Caddyfile, rendered for loopback -----------------------------
# Only the global options (ports, local CA, storage) and the upstream change;
# both lines must be found exactly once.
caddyfile="$repo/deploy/caddy/Caddyfile"
for pattern in $'^\temail ops@pastaio\\.example$' '^[[:space:]]*reverse_proxy 127\.0\.0\.1:8080 \{$'; do
    n="$(grep -cE "$pattern" "$caddyfile" || true)"
    [[ "$n" == 1 ]] || fail "Caddyfile: expected 1 line matching '$pattern', found $n"
done
options="$(printf '\\thttp_port %s\\n\\thttps_port %s\\n\\tdefault_bind 127.0.0.1\\n\\tlocal_certs\\n\\tskip_install_trust\\n\\tadmin off\\n\\tstorage file_system %s' \
    "$http_port" "$https_port" "$work/storage")"
sed -E \
    -e "s|^\temail ops@pastaio\.example$|${options}|" \
    -e "s|^([[:space:]]*)reverse_proxy 127\.0\.0\.1:8080 \{$|\1reverse_proxy 127.0.0.1:${origin_port} {|" \
    "$caddyfile" > "$work/Caddyfile"

# --- the origin, then Caddy -------------------------------------------------------
start_origin "$aasa_bin" "$origin_port"

HOME="$work" XDG_DATA_HOME="$work/data" XDG_CONFIG_HOME="$work/config" \
    caddy run --config "$work/Caddyfile" --adapter caddyfile > "$work/caddy.log" 2>&1 &
caddy_pid=$!
track_pid "$caddy_pid"
# Ready once it answers TLS for a demo name (its local CA has issued the certificate).
wait_http "https://pastaio.example:${https_port}/.well-known/apple-app-site-association" "caddy" "$caddy_pid" \
    --resolve "pastaio.example:${https_port}:127.0.0.1" --fail
note "caddy is up on 127.0.0.1:${http_port} (http) and :${https_port} (https)"

# --- requests through Caddy ---------------------------------------------------------
common_checks "$https_port" "$http_port"
check "plain http /it/menu (rest of the site): 308 to https" \
    expect_status http pastaio.example "$http_port" /it/menu 308
check "POST /.well-known/apple-app-site-association is not proxied (GET and HEAD only)" \
    expect_status https pastaio.example "$https_port" /.well-known/apple-app-site-association 404 -X POST

finish
