#!/usr/bin/env bash
# Benchmarks/slow-readers.sh — the memory of `aasa serve` under clients that
# pipeline requests and never read the answers (issue 11 item 1).
#
#   Benchmarks/slow-readers.sh                   1,000 clients × 2,000 GETs, release build
#   Benchmarks/slow-readers.sh --aasa PATH       use this binary instead of building it
#   Benchmarks/slow-readers.sh --clients 300 --requests 2000 --hold 20
#
# Each client sets a 4 KiB receive buffer, connects, writes as many of its
# pipelined GETs as the server takes (non-blocking) and never reads. The
# server's RSS is sampled before the clients connect, every second while
# they hold their connections (the peak is reported), and after they all
# left. Prints one line per phase and a `SLOW_READERS_JSON {...}` line.
# Needs python3 (installed with apt-get when missing) and `ps`.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$HERE")
AASA=""
CLIENTS=1000
REQUESTS=2000
HOLD=20
while [ $# -gt 0 ]; do
    case "$1" in
        --aasa) AASA=$2; shift ;;
        --clients) CLIENTS=$2; shift ;;
        --requests) REQUESTS=$2; shift ;;
        --hold) HOLD=$2; shift ;;
        -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
        *) echo "unknown option: $1" >&2; exit 2 ;;
    esac
    shift
done

if ! command -v python3 > /dev/null; then
    sudo_cmd=""
    [ "$(id -u)" = 0 ] || sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq && $sudo_cmd apt-get install -y -qq python3 > /dev/null
fi
if [ -z "$AASA" ]; then
    (cd "$ROOT" && swift build -c release --product aasa)
    AASA="$ROOT/.build/release/aasa"
fi
# Two descriptors per client on this machine (client and server end).
ulimit -n "$(( 2 * CLIENTS + 1024 ))" 2> /dev/null || ulimit -n "$(ulimit -Hn)"

work=$(mktemp -d)
server_pid=""
cleanup() {
    [ -n "$server_pid" ] && kill "$server_pid" 2> /dev/null && wait "$server_pid" 2> /dev/null
    rm -rf "$work"
}
trap cleanup EXIT

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$AASA" serve --dir "$ROOT/aasa" --bind 127.0.0.1 --port "$port" --admin-port 0 --no-access-log \
    > "$work/server.log" 2>&1 &
server_pid=$!

python3 - "$server_pid" "$port" "$CLIENTS" "$REQUESTS" "$HOLD" << 'PY'
import json, socket, subprocess, sys, time

pid, port, clients, requests, hold = sys.argv[1], int(sys.argv[2]), *map(int, sys.argv[3:])

def rss_mb():
    out = subprocess.run(["ps", "-o", "rss=", "-p", pid], capture_output=True, text=True).stdout.strip()
    if not out:
        sys.exit("aasa serve is not running (see its log)")
    return int(out) / 1024

deadline = time.monotonic() + 30
while True:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        break
    except OSError:
        if time.monotonic() > deadline:
            sys.exit("aasa serve did not start listening")
        time.sleep(0.1)

request = b"GET /.well-known/apple-app-site-association HTTP/1.1\r\nHost: pastaio.example\r\n\r\n"
before = rss_mb()
sockets, pending = [], []
for _ in range(clients):
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect(("127.0.0.1", port))
    s.setblocking(False)
    sockets.append(s)
    pending.append(memoryview(request * requests))

start, samples, closed_by_server = time.monotonic(), [], 0
while time.monotonic() - start < hold:
    for i, s in enumerate(sockets):
        if s is None or not pending[i]:
            continue
        try:
            sent = s.send(pending[i])
            pending[i] = pending[i][sent:]
        except BlockingIOError:
            pass
        except OSError:
            # The server dropped a client past its budget: that is the point.
            closed_by_server += 1
            s.close()
            sockets[i] = None
    samples.append(rss_mb())
    time.sleep(1)

written = sum(requests * len(request) - len(p) for p in pending)
for s in sockets:
    if s is None:
        continue
    try:
        s.recv(1, socket.MSG_PEEK)
    except ConnectionResetError:
        # Reset by the server: a client that made no progress for limits.sendTimeout.
        closed_by_server += 1
    except BlockingIOError:
        pass
    s.close()
time.sleep(5)
after = rss_mb()
result = {
    "clients": clients,
    "requests_per_client": requests,
    "request_bytes_written": written,
    "dropped_by_server": closed_by_server,
    "rss_mb": {"before": round(before, 1), "during_peak": round(max(samples), 1), "after": round(after, 1)},
}
print(f"before: {before:.1f} MB  during (peak): {max(samples):.1f} MB  after: {after:.1f} MB")
print(f"{clients} clients wrote {written / 1e6:.1f} MB of requests; {closed_by_server} were dropped by the server")
print("SLOW_READERS_JSON " + json.dumps(result))
PY
