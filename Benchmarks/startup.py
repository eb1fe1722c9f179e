#!/usr/bin/env python3
"""Startup and memory of `aasa serve` at scale, against what a user would
otherwise measure it by: Python reading and `json.loads`-ing the same files,
and the size of the files themselves.

    startup.py --aasa BIN --sites DIR [--runs N] [--small N] [--json]

DIR holds `aasa-bench sites` trees: DIR/sitesN/aasa/<host>/apple-app-site-association,
one tree for the scale (the largest N) and one for `--small` (default 1,000).
Every timing is from process launch: for aasa, to the first 200 for the last
host (the listener opens only after the first load); for Python, to its exit.
RSS growth per host is (RSS at the scale - RSS at the small count) divided by
the hosts added, next to the mean file size. With `--perf`, the load's
instructions (user, kernel) come from `perf stat` around the whole process,
stopped by SIGTERM once the last host answers.
"""

import argparse
import json
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time

# What the reference does: walk the directory, read every file, parse it.
PYTHON_REFERENCE = r"""
import json, os, sys
count = 0
for host in os.scandir(sys.argv[1]):
    for entry in os.scandir(host.path):
        if entry.is_file():
            with open(entry.path, "rb") as handle:
                json.loads(handle.read())
            count += 1
print(count)
"""

PATH = "/.well-known/apple-app-site-association"


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def status_of(port, host):
    """The status code for GET of the association file on `host`, or None."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=2) as sock:
            request = f"GET {PATH} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
            sock.sendall(request.encode())
            head = sock.recv(64)
            return int(head.split(b" ")[1]) if head.startswith(b"HTTP/1.1 ") else None
    except OSError:
        return None


def cpu_seconds(pid):
    """User + system CPU time of a running process."""
    with open(f"/proc/{pid}/stat") as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    # After "comm)": state is field 0, utime and stime are fields 11 and 12.
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as handle:
        for line in handle:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def descendant_running(pid, executable):
    """The process below `pid` running `executable` (aasa under perf or heaptrack)."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        pending = [pid]
        while pending:
            current = pending.pop()
            try:
                with open(f"/proc/{current}/cmdline", "rb") as handle:
                    command = handle.read().split(b"\0")[0].decode()
                with open(f"/proc/{current}/task/{current}/children") as handle:
                    pending += [int(child) for child in handle.read().split()]
            except FileNotFoundError:
                continue
            if os.path.realpath(command) == os.path.realpath(executable):
                return current
        time.sleep(0.001)
    raise RuntimeError(f"{executable} did not start below {pid}")


def run_aasa(aasa, tree, last_host, wrapper=None, stop=signal.SIGTERM, deadline_seconds=600):
    """Seconds from launch to the last host's 200, CPU seconds and RSS (KiB) then."""
    port = free_port()
    command = [
        aasa, "serve", "--dir", tree, "--port", str(port), "--bind", "127.0.0.1",
        "--admin-port", "0", "--no-access-log", "--poll-interval", "0",
    ]
    if wrapper:
        command = wrapper + command
    start = time.monotonic()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    server = descendant_running(process.pid, aasa) if wrapper else process.pid
    try:
        while status_of(port, last_host) != 200:
            if process.poll() is not None:
                raise RuntimeError(f"aasa exited with {process.returncode} before serving {last_host}")
            if time.monotonic() - start > deadline_seconds:
                raise RuntimeError(f"{last_host} not served within {deadline_seconds} s")
            time.sleep(0.002)
        seconds = time.monotonic() - start
        cpu = cpu_seconds(server)
        rss = rss_kib(server)
    finally:
        if process.poll() is None:
            os.kill(server, stop)
            process.wait(timeout=120)
    return seconds, cpu, rss


def run_python(tree):
    """Seconds from launch to exit, and CPU seconds."""
    start = time.monotonic()
    process = subprocess.Popen([sys.executable, "-c", PYTHON_REFERENCE, tree], stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.monotonic() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise RuntimeError(f"the Python reference exited with {process.returncode}")
    return seconds, usage.ru_utime + usage.ru_stime


def perf_counts(aasa, tree, last_host):
    """Instructions (user, kernel) of a whole run, or None without a PMU."""
    with tempfile.NamedTemporaryFile(suffix=".perf") as output:
        events = ["perf", "stat", "-x,", "-o", output.name, "-e", "instructions:u,instructions:k", "--"]
        run_aasa(aasa, tree, last_host, wrapper=events)
        counts = {}
        for line in open(output.name):
            fields = line.strip().split(",")
            if len(fields) > 2 and fields[0].isdigit():
                counts[fields[2].split(":")[-1]] = int(fields[0])
    return counts.get("u"), counts.get("k")


def heap_counts(aasa, tree, last_host):
    """heaptrack over a whole run: allocation calls, and the heap live when
    the last host answers (SIGKILL then, so heaptrack reports it as leaked)."""
    with tempfile.TemporaryDirectory() as directory:
        output = os.path.join(directory, "heap")
        run_aasa(aasa, tree, last_host, wrapper=["heaptrack", "-o", output], stop=signal.SIGKILL)
        recorded = [name for name in os.listdir(directory) if name.startswith("heap")][0]
        summary = subprocess.run(
            ["heaptrack_print", "-f", os.path.join(directory, recorded), "--print-leaks", "0",
             "--print-peaks", "0", "--print-allocators", "0", "--print-temporary", "0"],
            capture_output=True, text=True, check=True,
        ).stdout
    calls = int(re.search(r"calls to allocation functions: (\d+)", summary).group(1))
    leaked = re.search(r"total memory leaked: ([\d.]+)([KMG]?)", summary)
    scale = {"": 1, "K": 1e3, "M": 1e6, "G": 1e9}[leaked.group(2)]
    return calls, float(leaked.group(1)) * scale


def tree_facts(tree):
    hosts = sorted(os.listdir(tree))
    sizes = [os.path.getsize(os.path.join(tree, host, "apple-app-site-association")) for host in hosts]
    return hosts[-1], len(hosts), sum(sizes) / len(sizes)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--aasa", required=True)
    parser.add_argument("--sites", required=True, help="directory with sitesN trees")
    parser.add_argument("--scale", type=int, default=10000)
    parser.add_argument("--small", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--perf", action="store_true", help="also count instructions with perf stat")
    parser.add_argument("--allocations", action="store_true", help="also count allocations with heaptrack")
    arguments = parser.parse_args()

    big = os.path.join(arguments.sites, f"sites{arguments.scale}", "aasa")
    small = os.path.join(arguments.sites, f"sites{arguments.small}", "aasa")
    last_big, count_big, mean_size = tree_facts(big)
    last_small, count_small, _ = tree_facts(small)

    load_start = " ".join(f"{x:.2f}" for x in os.getloadavg())
    run_python(big)  # warms the page cache for both
    python_times, python_cpu, aasa_times, aasa_cpu, rss_big, rss_small = [], [], [], [], [], []
    # Interleaved, so a burst of load elsewhere hits both.
    for _ in range(arguments.runs):
        seconds, cpu = run_python(big)
        python_times.append(seconds)
        python_cpu.append(cpu)
        seconds, cpu, rss = run_aasa(arguments.aasa, big, last_big)
        aasa_times.append(seconds)
        aasa_cpu.append(cpu)
        rss_big.append(rss)
        rss_small.append(run_aasa(arguments.aasa, small, last_small)[2])

    python = statistics.median(python_times)
    startup = statistics.median(aasa_times)
    growth = (statistics.median(rss_big) - statistics.median(rss_small)) * 1024 / (count_big - count_small)
    result = {
        "kind": "startup-scale",
        "hosts": count_big,
        "mean_file_bytes": round(mean_size),
        "python_read_parse_seconds": round(python, 3),
        "aasa_last_host_200_seconds": round(startup, 3),
        "startup_ratio": round(startup / python, 2),
        "python_cpu_seconds": round(statistics.median(python_cpu), 3),
        "aasa_cpu_seconds": round(statistics.median(aasa_cpu), 3),
        "loadavg_start": load_start,
        "loadavg_end": " ".join(f"{x:.2f}" for x in os.getloadavg()),
        "rss_kib": {str(count_small): statistics.median(rss_small), str(count_big): statistics.median(rss_big)},
        "rss_growth_bytes_per_host": round(growth),
        "rss_growth_per_file_size": round(growth / mean_size, 2),
        "runs": arguments.runs,
        # sched_getaffinity is Linux-only; macOS has no CPU affinity.
        "cores": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count(),
    }
    if arguments.perf:
        result["instructions_user"], result["instructions_kernel"] = perf_counts(arguments.aasa, big, last_big)
    if arguments.allocations:
        calls, live = heap_counts(arguments.aasa, small, last_small)
        result["allocations_per_host"] = round(calls / count_small)
        result["live_heap_bytes_per_host"] = round(live / count_small)

    print(f"hosts {count_big:,} (mean file {mean_size:,.0f} bytes), median of {arguments.runs}, "
          f"{result['cores']} cores")
    print(f"  load average {load_start} -> {result['loadavg_end']} (wall times are only as good as this)")
    print(f"  Python read + json.loads        {python:7.3f} s wall  {result['python_cpu_seconds']:6.3f} s CPU")
    print(f"  aasa serve, last host 200       {startup:7.3f} s wall  {result['aasa_cpu_seconds']:6.3f} s CPU"
          f"   {startup / python:5.2f}x Python (target <= 3x)")
    print(f"  RSS growth {count_small:,} -> {count_big:,} hosts  {growth:7,.0f} B/host "
          f"{growth / mean_size:5.2f}x the file (target <= 3x)")
    if arguments.perf:
        print(f"  instructions (whole process)    user {result['instructions_user']}  "
              f"kernel {result['instructions_kernel']} (None: no hardware counters here)")
    if arguments.allocations:
        print(f"  heaptrack at {count_small:,} hosts         {result['allocations_per_host']:,} allocations/host, "
              f"{result['live_heap_bytes_per_host']:,} B/host live (fixed overhead included)")
    print("STARTUP_JSON " + json.dumps(result))


if __name__ == "__main__":
    main()
