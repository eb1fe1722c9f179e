#!/usr/bin/env bash
# Plays deploy/tunnel/cloudflared.yml on loopback: a tunnel cannot be reached
# from here, so nginx stands in for its edge (TLS under the tunnel's public
# names, forwarding to `aasa serve` with the Host header each ingress rule
# sends), and the aasa side of the recipe is tested for real:
#   - Host passthrough: the tunnel's name is a 404 until it is an alias
#     directory of the brand, then it serves the brand's file;
#   - Host rewritten (originRequest.httpHostHeader): the brand's file, no alias.
#
#   deploy/tunnel/test.sh [path/to/aasa]      (default: .build/debug/aasa)
#
# Needs nginx, openssl, curl and python3 with PyYAML. Exits non-zero on any
# failure; stops its processes and removes its temp dir in every case.
set -euo pipefail

test_name=tunnel-test
# shellcheck source=SCRIPTDIR/../lib/proxy-test.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/proxy-test.sh"

aasa_bin="${1:-.build/debug/aasa}"
[[ "$aasa_bin" == /* ]] || aasa_bin="$PWD/$aasa_bin"
show_logs+=(error.log)
require_tools nginx openssl curl python3
python3 -c 'import yaml' 2> /dev/null || fail "python3 lacks PyYAML"

brand=pastaio.example
origin_port="$(free_port)"
edge_port="$(free_port)"

# --- the ingress rules of the shipped file -----------------------------------
# One line per rule with a hostname: "<hostname> <Host sent to the origin>",
# where "-" means passthrough. Every rule must point at aasa serve's port.
python3 - "$repo/deploy/tunnel/cloudflared.yml" > "$work/rules" << 'PY'
import sys, yaml
config = yaml.safe_load(open(sys.argv[1]))
rules = config["ingress"]
assert rules[-1] == {"service": "http_status:404"}, "the last ingress rule must be the catch-all 404"
for rule in rules[:-1]:
    assert rule["service"] == "http://127.0.0.1:8080", f"{rule['hostname']}: service is not aasa serve's port"
    host = rule.get("originRequest", {}).get("httpHostHeader", "-")
    print(rule["hostname"], host)
PY
passthrough="$(awk '$2 == "-" { print $1 }' "$work/rules")"
rewritten="$(awk -v b="$brand" '$2 == b { print $1 }' "$work/rules")"
[[ -n $passthrough && -n $rewritten ]] || fail "cloudflared.yml needs a passthrough rule and one rewriting Host to $brand"

# --- the tunnel's edge: nginx, TLS under the public names --------------------
san="$(awk '{ printf "%sDNS:%s", (NR > 1 ? "," : ""), $1 }' "$work/rules")"
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -sha256 -subj "/CN=tunnel edge" \
    -addext "subjectAltName=$san" -keyout "$work/edge-key.pem" -out "$work/edge.pem" 2> /dev/null \
    || fail "openssl could not make the edge certificate"
servers=""
while read -r name host; do
    # shellcheck disable=SC2016 # nginx's own $host: the name the client asked for
    [[ $host == - ]] && host='$host'
    servers+="
    server {
        listen 127.0.0.1:${edge_port} ssl;
        server_name ${name};
        ssl_certificate $work/edge.pem;
        ssl_certificate_key $work/edge-key.pem;
        location / {
            proxy_pass http://127.0.0.1:${origin_port};
            proxy_set_header Host ${host};
        }
    }"
done < "$work/rules"
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
    # The catch-all rule: any other name is the tunnel's 404.
    server {
        listen 127.0.0.1:${edge_port} ssl default_server;
        ssl_certificate $work/edge.pem;
        ssl_certificate_key $work/edge-key.pem;
        return 404;
    }
$servers
}
NGINX
nginx -t -q -p "$work" -e "$work/error.log" -c "$work/nginx.conf" || fail "nginx -t rejected the edge"

# --- aasa serve on a copy of the demo (the alias is made below) --------------
cp -R "$repo/aasa" "$work/aasa"
"$aasa_bin" serve --dir "$work/aasa" --bind 127.0.0.1 --port "$origin_port" --admin-port 0 --poll-interval 0 \
    > "$work/origin.log" 2>&1 &
origin_pid=$!
track_pid "$origin_pid"
wait_http "http://127.0.0.1:${origin_port}/" "aasa serve" "$origin_pid"
nginx -p "$work" -e "$work/error.log" -c "$work/nginx.conf" -g 'daemon off;' &
nginx_pid=$!
track_pid "$nginx_pid"
wait_http "https://${rewritten}:${edge_port}/" "nginx" "$nginx_pid" --resolve "${rewritten}:${edge_port}:127.0.0.1"
note "aasa serve on :${origin_port}, the tunnel's edge on :${edge_port}"

aasa_path=/.well-known/apple-app-site-association
brand_file="aasa/${brand}/apple-app-site-association"
check "Host rewritten to ${brand}: the brand's file, no alias needed" \
    expect_file https "$rewritten" "$edge_port" "$aasa_path" "$brand_file"
check "Host passthrough without an alias directory: 404 (what the recipe prevents)" \
    not_html https "$passthrough" "$edge_port" "$aasa_path" 404

# The recipe's step: the tunnel's own name as an alias directory of the brand.
ln -s "$brand" "$work/aasa/$passthrough"
kill -HUP "$origin_pid"
served_through_alias() {
    local i
    for i in $(seq 1 50); do
        [[ "$(fetch https "$passthrough" "$edge_port" "$aasa_path")" == 200 ]] && break
        sleep 0.2
    done
    expect_file https "$passthrough" "$edge_port" "$aasa_path" "$brand_file"
}
check "Host passthrough with the alias directory: the brand's file (after SIGHUP)" served_through_alias
check "a name the tunnel does not route: the tunnel's 404" \
    expect_status https other.example.net "$edge_port" "$aasa_path" 404

finish
