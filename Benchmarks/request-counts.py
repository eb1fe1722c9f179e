#!/usr/bin/env python3
"""Exact per-request counts of the origin's request path, against NIOFloor.

Where the VM exposes no hardware counters (`perf stat -e instructions` says
"not supported"), CPU time per request is too noisy on a shared machine to
decide a change. These counts are exact instead: retains and releases
(uprobes on libswiftCore's swift_retain / swift_release, the atomics most of
the user-space cycles go to), malloc calls and system calls per request.

The connections are opened and warmed up before counting starts and stay
open, and every connection sends the same number of requests, so neither
connection set-up nor requests in flight at the end blur the division.
swift_release(NULL) is counted too, though it does no atomic: compare
servers and commits, not absolute numbers.

    Benchmarks/request-counts.py --aasa .build/release/aasa \
        --floor Benchmarks/.build/release/NIOFloor --sites DIR [--conns 16 512] [--per 600] [--hosts 1000] \
        [--fixed-second]

DIR is a tree from `aasa-bench sites DIR 1000`. With `--hosts N` each
connection rotates its Host over d0001 … dN (as `run.sh`'s rotating load). Needs root (uprobes) and perf,
and binaries that load libswiftCore.so (a plain `swift build -c release`, not the static build `run.sh`
times): the probes sit in the shared library.

With `--fixed-second` the servers run with `time()` stopped at one second
(a shim preloaded into them, built with `cc`): the origin's per-second
buffers then never expire, as under `wrk`, where each of 1,000 rotating
hosts comes back ~100 times a second. Without it, this client's few thousand
requests a second bring each host back a few times a second, so many
rotating requests are the first of their second for their host (they build
its buffer), and the counts move with the client's rate.
"""

import argparse
import asyncio
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time

PATH = "/.well-known/apple-app-site-association"
PROBES = ["probe_libswiftCore:swift_retain", "probe_libswiftCore:swift_release",
          "probe_libswiftCore:swift_bridgeObjectRetain", "probe_libswiftCore:swift_bridgeObjectRelease",
          "probe_libc:malloc", "probe_libswiftCore:swift_beginAccess"]

# time() stopped at one second, for --fixed-second.
FIXED_SECOND = """
#include <time.h>
time_t time(time_t *t) { time_t now = 1795000000; if (t) *t = now; return now; }
"""


def library(binary, name):
    """The path of `name` (libswiftCore.so, libc.so.6) that `binary` loads."""
    for line in subprocess.run(["ldd", binary], capture_output=True, text=True, check=True).stdout.splitlines():
        if line.strip().startswith(name):
            return line.split("=>")[1].split("(")[0].strip()
    sys.exit(f"{binary} does not load {name}")


def ensure_probes(binary):
    existing = subprocess.run(["perf", "probe", "-l"], capture_output=True, text=True).stdout
    for lib, function in [("libswiftCore.so", "swift_retain"), ("libswiftCore.so", "swift_release"),
                          ("libswiftCore.so", "swift_bridgeObjectRetain"),
                          ("libswiftCore.so", "swift_bridgeObjectRelease"), ("libc.so.6", "malloc"),
                          ("libswiftCore.so", "swift_beginAccess")]:
        if f":{function} " not in existing:
            subprocess.run(["perf", "probe", "-q", "-x", library(binary, lib), function], check=True)


def request(host):
    return (f"GET {PATH} HTTP/1.1\r\nHost: {host}\r\nUser-Agent: AASA-Bot/1.0.0\r\nAccept: */*\r\n\r\n").encode()


async def exchange(reader, writer, data):
    writer.write(data)
    head = await reader.readuntil(b"\r\n\r\n")
    if not head.startswith(b"HTTP/1.1 200"):
        sys.exit(f"not a 200: {head[:40]!r}")
    length = 0
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    await reader.readexactly(length)


async def drive(port, pid, conns, per, hosts, output):
    requests = [request(f"d{i:04d}.bench.example") for i in range(1, hosts + 1)]
    deadline = time.monotonic() + 60
    while True:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            await exchange(reader, writer, request("d1000.bench.example"))
            writer.close()
            break
        except (OSError, asyncio.IncompleteReadError):
            if time.monotonic() > deadline:
                sys.exit("the server did not answer within 60 s")
            await asyncio.sleep(0.05)
    connections = [await asyncio.open_connection("127.0.0.1", port) for _ in range(conns)]
    # Every host asked once before counting: its first answer (learnt by
    # the origin's host table) is not what the counts are about.
    for round in range(max(3, -(-hosts // conns))):
        await asyncio.gather(*(exchange(r, w, requests[(n + round * conns) % hosts])
                               for n, (r, w) in enumerate(connections)))
    events = ",".join(PROBES + ["raw_syscalls:sys_enter"])
    perf = subprocess.Popen(["perf", "stat", "-x,", "-e", events, "-p", str(pid), "-o", output])
    await asyncio.sleep(0.5)  # perf attached

    async def one(offset, reader, writer):
        for i in range(per):
            await exchange(reader, writer, requests[(offset + i) % hosts])

    await asyncio.gather(*(one(n * 37, r, w) for n, (r, w) in enumerate(connections)))
    perf.send_signal(signal.SIGINT)
    perf.wait()
    for _, writer in connections:
        writer.close()


def free_port():
    """A port free at this moment, picked by the kernel for a probe socket.

    A random port was often one of the ephemeral ports the machine's other
    connections use (the server's bind failed and the run waited in vain).
    The server binds the port a moment after the probe closes it, so another
    process could still take it in between; the run then fails at its
    deadline rather than measuring anything else.
    """
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def fixed_second_shim(directory):
    """A shared library that stops `time()` at one second."""
    source = os.path.join(directory, "fixed-second.c")
    library = os.path.join(directory, "fixed-second.so")
    with open(source, "w") as file:
        file.write(FIXED_SECOND)
    subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-o", library, source], check=True)
    return library


def measure(kind, binary, sites, conns, per, hosts, preload):
    port = free_port()
    if kind == "aasa":
        command = [binary, "serve", "--dir", f"{sites}/aasa", "--port", str(port), "--bind", "127.0.0.1",
                   "--admin-port", "0", "--no-access-log", "--poll-interval", "0"]
    else:
        command = [binary, f"{sites}/aasa/d0001.bench.example/apple-app-site-association", str(port)]
    environment = dict(os.environ, LD_PRELOAD=preload) if preload else None
    server = subprocess.Popen(["taskset", "-c", "0"] + command, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, env=environment)
    output = f"/tmp/request-counts-{os.getpid()}.csv"
    try:
        asyncio.run(drive(port, server.pid, conns, per, hosts, output))
    finally:
        server.terminate()
        server.wait()
    counts = {}
    with open(output) as lines:
        for line in lines:
            fields = line.strip().split(",")
            if len(fields) > 2 and fields[0][:1].isdigit():
                counts[fields[2].split(":")[-1]] = float(fields[0]) / (conns * per)
    os.unlink(output)
    return counts


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--aasa", required=True)
    parser.add_argument("--floor", required=True)
    parser.add_argument("--sites", required=True)
    parser.add_argument("--conns", type=int, nargs="+", default=[16, 512])
    parser.add_argument("--per", type=int, default=0, help="requests per connection (default: 10,000 in all)")
    parser.add_argument("--hosts", type=int, default=1, help="rotate Host over this many hosts (default: 1)")
    parser.add_argument("--fixed-second", action="store_true",
                        help="stop the servers' time() at one second (per-second buffers never expire, as under wrk)")
    args = parser.parse_args()
    ensure_probes(args.aasa)
    print(f"hosts rotated: {args.hosts}" + (", time() fixed at one second" if args.fixed_second else ""))
    print("| connections | server | retains | releases | string retains | string releases | malloc | syscalls "
          "| beginAccess |")
    print("|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as directory:
        preload = fixed_second_shim(directory) if args.fixed_second else None
        for conns in args.conns:
            per = args.per or max(1, 10_000 // conns)
            for kind, binary in [("nio-floor", args.floor), ("aasa", args.aasa)]:
                c = measure(kind, binary, args.sites, conns, per, args.hosts, preload)
                print(f"| {conns} | {kind} | {c['swift_retain']:.1f} | {c['swift_release']:.1f} "
                      f"| {c['swift_bridgeObjectRetain']:.1f} | {c['swift_bridgeObjectRelease']:.1f} "
                      f"| {c['malloc']:.2f} | {c['sys_enter']:.2f} | {c['swift_beginAccess']:.1f} |")


if __name__ == "__main__":
    main()
