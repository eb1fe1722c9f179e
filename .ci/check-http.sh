#!/usr/bin/env bash
# Lints the origin's HTTP with REDbot, a third-party HTTP linter:
#
#   .ci/check-http.sh path/to/aasa        (the built binary; default .build/debug/aasa)
#
# Installs REDbot (pinned, PyPI) into a cached virtualenv, serves the demo
# brand (aasa/) plus one host whose file is too small for gzip to pay, on a
# free loopback port, and runs .ci/redbot-check.py against every route and
# every kind of answer. Fails on any BAD or WARN note, on an unexpected status,
# or when revalidation and gzip negotiation do not work as promised.
# Runs unattended (CI=true, no stdin) as root on Debian.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
aasa_bin="${1:-$repo/.build/debug/aasa}"
[[ "$aasa_bin" == /* ]] || aasa_bin="$PWD/$aasa_bin"
[[ -x "$aasa_bin" ]] || { echo "check-http: no aasa binary at $aasa_bin" >&2; exit 2; }

tools_dir="${AASA_CI_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/swift-aasa-ci}"
venv="$tools_dir/redbot-venv"
requirement="redbot==2.7.1"

# Debian's python3 needs python3-venv for `python3 -m venv`.
if ! python3 -c 'import ensurepip, venv' > /dev/null 2>&1; then
    echo "check-http: apt-get install python3 python3-venv"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq < /dev/null \
        && apt-get install -y -qq --no-install-recommends python3 python3-venv < /dev/null > /dev/null
fi
if [[ ! -x $venv/bin/python || "$(cat "$venv/.requirements" 2> /dev/null)" != "$requirement" ]]; then
    echo "check-http: pip install $requirement"
    mkdir -p "$tools_dir"
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q --disable-pip-version-check "$requirement" < /dev/null
    printf '%s' "$requirement" > "$venv/.requirements"
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/aasa-http.XXXXXX")"
origin_pid=""
cleanup() {
    local status=$?
    if [[ -n "$origin_pid" ]] && kill -0 "$origin_pid" 2> /dev/null; then
        kill -TERM "$origin_pid" 2> /dev/null || true
        wait "$origin_pid" 2> /dev/null || true
    fi
    if [[ $status -ne 0 && -s "$work/origin.log" ]]; then
        echo "----- origin.log (last 40 lines)" >&2
        tail -n 40 "$work/origin.log" >&2
    fi
    rm -rf "$work"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The demo as shipped (symlinked aliases included), and a file so small that
# gzip would make it bigger: the origin then serves identity to everyone.
cp -R "$repo/aasa" "$work/site"
mkdir "$work/site/tiny.example"
printf '{"webcredentials":{"apps":["ABCDE12345.com.example.app"]}}\n' \
    > "$work/site/tiny.example/apple-app-site-association"

port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')"
"$aasa_bin" serve --dir "$work/site" --bind 127.0.0.1 --port "$port" --admin-port 0 --strict \
    > "$work/origin.log" 2>&1 &
origin_pid=$!

# Ready when it accepts connections; at most ~20 s, and not past its own exit.
ready=0
for _ in $(seq 1 100); do
    kill -0 "$origin_pid" 2> /dev/null || { echo "check-http: aasa serve exited" >&2; exit 1; }
    if python3 -c 'import socket, sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), 1).close()' \
        "$port" 2> /dev/null; then
        ready=1
        break
    fi
    sleep 0.2
done
((ready)) || { echo "check-http: aasa serve did not listen on 127.0.0.1:$port within 20 s" >&2; exit 1; }

"$venv/bin/python" "$repo/.ci/redbot-check.py" "$port"
