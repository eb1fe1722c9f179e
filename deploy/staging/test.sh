#!/usr/bin/env bash
# Serves the repository's demo with deploy/staging/aasa.staging.json: staging
# names derived from the production hosts (hosts.staging), over HTTP and over
# HTTPS with one wildcard certificate from `aasa dev-cert --out`, verified by
# curl against the development CA (no -k).
#
#   deploy/staging/test.sh [path/to/aasa]      (default: .build/debug/aasa)
#
# Needs curl and python3. Exits non-zero on any failure; stops its processes
# and removes its temp dir in every case.
set -euo pipefail

test_name=staging-test
# shellcheck source=SCRIPTDIR/../lib/proxy-test.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/proxy-test.sh"

aasa_bin="${1:-.build/debug/aasa}"
[[ "$aasa_bin" == /* ]] || aasa_bin="$PWD/$aasa_bin"
require_tools curl python3
[[ -x "$aasa_bin" ]] || fail "no aasa binary at $aasa_bin"

config="$repo/deploy/staging/aasa.staging.json"
pattern="$(python3 -c 'import json, sys; print(*json.load(open(sys.argv[1]))["hosts"]["staging"])' "$config")"
[[ $pattern == "{label}.aasa-staging.example.com" ]] || fail "aasa.staging.json: unexpected pattern '$pattern'"
http_port="$(free_port)"
https_port="$(free_port)"

# The wildcard certificate where the configuration expects it (certs/,
# relative to the working directory), from a CA made for this run.
mkdir -p "$work/run"
"$aasa_bin" dev-cert '*.aasa-staging.example.com' --out "$work/run/certs" --ca-dir "$work/ca" > "$work/dev-cert.log" 2>&1 \
    || { cat "$work/dev-cert.log"; fail "aasa dev-cert failed"; }
ln -s "$repo/aasa" "$work/run/aasa"

(cd "$work/run" && exec "$aasa_bin" serve --config "$config" --port "$http_port" --tls-port "$https_port" \
    --admin-port 0) > "$work/origin.log" 2>&1 &
origin_pid=$!
track_pid "$origin_pid"
wait_http "http://127.0.0.1:${http_port}/" "aasa serve" "$origin_pid"

# verified NAME FILE: HTTPS with the certificate checked against the CA, and plain HTTP.
verified() {
    local name="$1.aasa-staging.example.com" status
    status="$(curl -s --max-time 5 --cacert "$work/ca/ca.pem" --resolve "${name}:${https_port}:127.0.0.1" \
        -o "$work/body" -w '%{http_code}' "https://${name}:${https_port}/.well-known/apple-app-site-association" \
        || echo 000)"
    [[ $status == 200 ]] || { echo "    https ${name}: status $status, want 200" >&2; return 1; }
    cmp -s "$work/body" "$repo/$2" || { echo "    https ${name}: body differs from $2" >&2; return 1; }
    status="$(curl -s --max-time 5 -H "Host: ${name}" -o "$work/body" -w '%{http_code}' \
        "http://127.0.0.1:${http_port}/.well-known/apple-app-site-association" || echo 000)"
    [[ $status == 200 ]] || { echo "    http ${name}: status $status, want 200" >&2; return 1; }
    cmp -s "$work/body" "$repo/$2" || { echo "    http ${name}: body differs from $2" >&2; return 1; }
}
check "pastaio-example.aasa-staging.example.com: pastaio.example's file (https, verified)" \
    verified pastaio-example aasa/pastaio.example/apple-app-site-association
check "pastaio--de-example (-- is a real -): pastaio-de.example's file" \
    verified pastaio--de-example aasa/pastaio-de.example/apple-app-site-association
check "accounts-pastaio-example: accounts.pastaio.example's file" \
    verified accounts-pastaio-example aasa/accounts.pastaio.example/apple-app-site-association
check "staging-pastaio-example (a symlink alias, mapped too): pastaio.example's file" \
    verified staging-pastaio-example aasa/pastaio.example/apple-app-site-association
check "a label naming no served host: 404" \
    not_html http unknown-example.aasa-staging.example.com "$http_port" /.well-known/apple-app-site-association 404
check "two labels in place of one: 404" \
    not_html http www.pastaio-example.aasa-staging.example.com "$http_port" /.well-known/apple-app-site-association 404

finish
