#!/usr/bin/env bash
# Issue 3's engine question: the origin's request path as a ChannelHandler
# (what `aasa serve` runs) vs a NIOAsyncChannel loop (Sources/AsyncEngine),
# same decoder, snapshot and pre-encoded responses. Servers take turns; each
# round reports CPU µs/request (utime+stime ÷ requests) and instructions per
# request (perf stat attached to the server). Server on CPU 0, wrk on CPU 1.
#
#   Benchmarks/engines.sh [rounds] [seconds]
set -euo pipefail
rounds="${1:-3}"
seconds="${2:-5}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(dirname "$here")"
for tool in wrk perf bc curl; do
    command -v "$tool" > /dev/null || { echo "engines.sh: needs $tool (apt-get install wrk linux-perf bc curl)" >&2; exit 2; }
done
swift build -c release --package-path "$repo" --product aasa > /dev/null
swift build -c release --package-path "$here" --product AsyncEngine > /dev/null
aasa="$(swift build -c release --package-path "$repo" --show-bin-path)/aasa"
engine="$(swift build -c release --package-path "$here" --show-bin-path)/AsyncEngine"
port=27100
lua="$(mktemp)"
trap 'rm -f "$lua"' EXIT
printf 'wrk.headers["Host"] = "pastaio.example"\n' > "$lua"
url="http://127.0.0.1:$port/.well-known/apple-app-site-association"

measure() {  # name command...
    local name=$1
    shift
    taskset -c 0 "$@" > /dev/null 2>&1 &
    local pid=$!
    for _ in $(seq 1 100); do
        curl -s -o /dev/null -H 'Host: pastaio.example' "$url" && break
        sleep 0.1
    done
    taskset -c 1 wrk -t1 -c16 -d1s -s "$lua" "$url" > /dev/null
    local before after out requests instructions hz
    before=$(awk '{print $14 + $15}' "/proc/$pid/stat")
    out=$(perf stat -x, -e instructions -p "$pid" -- taskset -c 1 wrk -t1 -c16 -d"${seconds}s" -s "$lua" "$url" 2>&1)
    after=$(awk '{print $14 + $15}' "/proc/$pid/stat")
    kill "$pid"
    wait "$pid" 2> /dev/null || true
    requests=$(echo "$out" | awk '/requests in/ {print $1}')
    instructions=$(echo "$out" | awk -F, '/instructions/ {print $1}')
    hz=$(getconf CLK_TCK)
    printf '%-8s requests=%s cpu_us_per_req=%.2f instructions_per_req=%d\n' "$name" "$requests" \
        "$(echo "($after - $before) / $hz * 1000000 / $requests" | bc -l)" "$((instructions / requests))"
}

for _ in $(seq 1 "$rounds"); do
    measure handler "$aasa" serve --dir "$repo/aasa" --bind 127.0.0.1 --port "$port" --admin-port 0 \
        --no-access-log --poll-interval 0
    measure async "$engine" "$repo/aasa" "$port"
done
